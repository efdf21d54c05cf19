import { useState } from 'react';

/** The cursors a page request carries (contract PageCursorFields). */
export interface PageCursors {
  after?: string;
  before?: string;
}

interface Paged {
  firstCursor?: string;
  lastCursor?: string;
}

/**
 * The anchors of the page on screen, for the next page request (docs/architecture.md#paged-lists): the
 * server reads a nearby page from them by key instead of skipping every row before it. They belong to
 * one filter set (`listKey`): other filters start from the ends of their list.
 */
export function usePageAnchors(listKey: string) {
  const [held, setHeld] = useState<{ key: string; cursors: PageCursors }>({ key: listKey, cursors: {} });
  const cursors = held.key === listKey ? held.cursors : {};
  /** Call before moving to another page, with the answer on screen. */
  const keep = (shown: Paged | undefined) =>
    setHeld({
      key: listKey,
      cursors: shown ? { after: shown.lastCursor, before: shown.firstCursor } : {},
    });
  return { cursors, keep };
}

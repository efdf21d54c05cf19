import {
  type ChatMessage,
  type Conversation,
  type ConversationFilter,
  cleanText,
  MMS_MAX_BYTES,
  UP_DOWN_OUTGOING,
} from '@simdock/contract';
import { formatPhone } from '../../lib/format.ts';

/**
 * Pure rules of the Chat page (docs/product.md), kept out of the components so they are tested alone.
 */

/**
 * Which conversation is selected after the list changed (docs/product.md#states-and-colours): the current one
 * while it is still listed; otherwise the first (the first load auto-selects it), or none when the list is
 * empty.
 */
export function pickSelection(
  list: readonly Pick<Conversation, 'conversationId'>[],
  selected: string | null,
) {
  if (selected !== null && list.some((c) => c.conversationId === selected)) return selected;
  return list[0]?.conversationId ?? null;
}

/** The unread count of one conversation: the server's count, else 1 when it is marked unread. */
export function unreadOf(c: Pick<Conversation, 'isRead' | 'unreadCount'>): number {
  if (typeof c.unreadCount === 'number') return c.unreadCount;
  return c.isRead ? 0 : 1;
}

/** The list filter in the URL (`?filter=unread`, `?filter=replied`); anything else is All. */
export function parseChatFilter(value: string | null): ConversationFilter {
  return value === 'unread' || value === 'replied' ? value : 'all';
}

/** The URL parameters with `filter` set (All drops it: /ChatPage is the whole list); others kept. */
export function withChatFilter(params: URLSearchParams, filter: ConversationFilter): URLSearchParams {
  const next = new URLSearchParams(params);
  if (filter === 'all') next.delete('filter');
  else next.set('filter', filter);
  return next;
}

/** Numeric ids as the server orders them (bigint text: a longer one is larger). */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

type Listed = Pick<Conversation, 'conversationId' | 'isRead' | 'unreadCount' | 'latestTime'>;

/**
 * The list as shown while the reader has `opened` selected, a conversation that had unread replies
 * when they opened it: opening reads it, and the server then lists it among the read ones (or, in
 * Unread, not at all). It keeps its place among the unread ones instead, still in the list, until
 * another conversation is selected, so reading does not pull it from under the reader (nor
 * auto-select the next unread one, and read that too). `keepMissing`: put it back when the list no
 * longer has it (Unread only: elsewhere a conversation that went is gone). Everything else keeps
 * the server's order: unread first, then newest first.
 */
export function inboxOrder<T extends Listed>(
  list: readonly T[],
  opened: T | null,
  keepMissing: boolean,
): T[] {
  if (!opened) return [...list];
  const id = opened.conversationId;
  const current = list.find((c) => c.conversationId === id);
  if (!current && !keepMissing) return [...list];
  const shown: T = current ?? { ...opened, isRead: true, unreadCount: 0 };
  const rest = list.filter((c) => c.conversationId !== id);
  const at = rest.findIndex(
    (c) =>
      unreadOf(c) === 0 ||
      c.latestTime < shown.latestTime ||
      (c.latestTime === shown.latestTime && compareIds(c.conversationId, id) < 0),
  );
  rest.splice(at < 0 ? rest.length : at, 0, shown);
  return rest;
}

/**
 * The list search: by contact name (case-insensitive, any part) or by number (its digits; "+1 (310)"
 * finds 1310…). An empty search keeps everything.
 */
export function filterConversations<T extends Pick<Conversation, 'contactName' | 'receiver'>>(
  list: readonly T[],
  search: string,
): T[] {
  const q = search.trim().toLocaleLowerCase();
  if (!q) return [...list];
  const digits = q.replace(/\D/g, '');
  return list.filter(
    (c) =>
      c.contactName.toLocaleLowerCase().includes(q) ||
      c.receiver.toLocaleLowerCase().includes(q) ||
      (digits.length > 0 && /^[\d\s()+.-]+$/.test(q) && c.receiver.replace(/\D/g, '').includes(digits)),
  );
}

// C0 controls except tab and line feed, DEL and the C1 controls; bidirectional overrides and
// isolates (they can reorder what the reader sees); zero-width joiners stay (emoji need them).
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/**
 * Message text as shown (docs/product.md#forms: control characters stripped): the contract's cleanText (no
 * NUL, no lone surrogate), CR LF / CR as one line break, then every control character removed. Line breaks
 * and tabs stay.
 */
export function displayText(value: string | null | undefined): string {
  if (!value) return '';
  return cleanText(value).replace(/\r\n?/g, '\n').replace(CONTROL, '');
}

/** One-line preview for the conversation list: displayText with whitespace runs folded to a space. */
export function previewText(value: string | null | undefined): string {
  return displayText(value).replace(/\s+/g, ' ').trim();
}

/** The name to show for a conversation: the contact name, else the number (formatted for reading). */
export function conversationTitle(c: Pick<Conversation, 'contactName' | 'receiver'>): string {
  const name = previewText(c.contactName);
  return name || formatPhone(c.receiver);
}

/** Whether a conversation's title is a contact name (the number is then shown beside it). */
export function hasContactName(c: Pick<Conversation, 'contactName'>): boolean {
  return previewText(c.contactName) !== '';
}

export const isOutgoing = (m: Pick<ChatMessage, 'upDownType'>) => m.upDownType === UP_DOWN_OUTGOING;

/** How stored media is shown: `.mp4` plays in a <video>, anything else is an image. */
export function mediaKind(fileName: string): 'video' | 'image' {
  return /\.mp4$/i.test(fileName) ? 'video' : 'image';
}

/** The attach button's accept list: images and MP4 video (the server checks the content). */
export const ATTACH_ACCEPT = 'image/jpeg,image/png,image/gif,image/webp,video/mp4';

/** A chosen file the page offers to send: an image or an MP4 (by type or name; the server decides). */
export function isAttachable(file: Pick<File, 'type' | 'name'>): boolean {
  if (file.type.startsWith('image/') || file.type === 'video/mp4') return true;
  return !file.type && /\.(jpe?g|png|gif|webp|mp4)$/i.test(file.name);
}

/**
 * What is wrong with a chosen attachment before it is uploaded: not an image or MP4, or larger than
 * the server takes (the contract's MMS_MAX_BYTES). undefined: fine to send.
 */
export function attachmentProblem(file: Pick<File, 'type' | 'name' | 'size'>): 'type' | 'size' | undefined {
  if (!isAttachable(file)) return 'type';
  if (file.size > MMS_MAX_BYTES) return 'size';
  return undefined;
}

/** Pixels from the bottom within which the reader counts as "at the bottom". */
export const BOTTOM_SLACK = 48;

export function isAtBottom(
  el: Pick<HTMLElement, 'scrollTop' | 'scrollHeight' | 'clientHeight'>,
  slack = BOTTOM_SLACK,
): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= slack;
}

/**
 * The thread's scroll rule (docs/product.md#states-and-colours): scroll to the bottom once when a newly
 * selected conversation's messages first show, and when a new message arrives (the last message changed)
 * while the reader was at the bottom. Otherwise leave the reader where they are (reading older messages).
 */
export function shouldScrollToBottom(s: {
  /** The thread's first render with messages since the selection changed. */
  firstLoadOfSelection: boolean;
  /** The id of the last message changed since the previous render. */
  lastMessageChanged: boolean;
  /** The reader was at the bottom before this update. */
  wasAtBottom: boolean;
}): boolean {
  if (s.firstLoadOfSelection) return true;
  return s.lastMessageChanged && s.wasAtBottom;
}

/**
 * A URL the page may show a media Blob from, under the server's Content-Security-Policy
 * (`img-src 'self' data:`; media falls back to `default-src 'self'`): images become a data: URL
 * (allowed for <img>); video becomes an object URL, which needs `media-src blob:` from the server.
 * `revoke` frees an object URL (a no-op for a data: URL); call it when the media leaves the screen.
 */
export async function displayUrl(
  blob: Blob,
  kind: 'image' | 'video',
): Promise<{ url: string; revoke: () => void }> {
  if (kind === 'video') {
    const url = URL.createObjectURL(blob);
    return { url, revoke: () => URL.revokeObjectURL(url) };
  }
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const url = `data:${blob.type || 'application/octet-stream'};base64,${btoa(binary)}`;
  return { url, revoke: () => {} };
}

import { type ChatMessage, deliveryIndicator } from '@simdock/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { CircleCheck, CircleX } from 'lucide-react';
import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { EmptyState, QueryState } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { formatDateTime } from '../../lib/format.ts';
import { displayText, isAtBottom, isOutgoing, shouldScrollToBottom } from './chat-logic.ts';
import { MessageMedia } from './MessageMedia.tsx';

export interface ThreadProps {
  conversationId: string;
  /** The contact's name or number, for the log's accessible name. */
  title: string;
  query: UseQueryResult<ChatMessage[]>;
}

/**
 * The messages of one conversation, oldest first: incoming on the left, outgoing on the right, each
 * with its time and (outgoing) its delivery indicator. Scrolls to the bottom once when the selection's
 * messages first show, and again when a new message arrives while the reader is at the bottom.
 */
export function Thread({ conversationId, title, query }: ThreadProps) {
  const { t } = useI18n();
  const box = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const shownFor = useRef<string | null>(null);
  const lastId = useRef<string | undefined>(undefined);
  const messages = query.data;
  const newest = messages?.at(-1)?.id;

  const toBottom = useCallback(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
    atBottom.current = true;
  }, []);

  useLayoutEffect(() => {
    if (!messages) return;
    const first = shownFor.current !== conversationId;
    const changed = newest !== lastId.current;
    shownFor.current = conversationId;
    lastId.current = newest;
    if (
      shouldScrollToBottom({
        firstLoadOfSelection: first,
        lastMessageChanged: changed,
        wasAtBottom: atBottom.current,
      })
    )
      toBottom();
  }, [conversationId, messages, newest, toBottom]);

  // Media growing the thread after it loads, or the send form growing (an attachment's preview),
  // changes sizes without a new message: keep the bottom in view if the reader was there. Resize
  // observers run before the scroll event such a change causes, so `atBottom` is still the old one.
  const onMediaLoad = useCallback(() => {
    if (atBottom.current) toBottom();
  }, [toBottom]);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) toBottom();
    });
    observer.observe(el);
    if (content.current) observer.observe(content.current);
    return () => observer.disconnect();
  }, [toBottom]);

  return (
    <div
      ref={box}
      role="log"
      aria-label={t('chat.thread', { name: title })}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling log must be reachable by keyboard to scroll it
      tabIndex={0}
      onScroll={(e) => {
        atBottom.current = isAtBottom(e.currentTarget);
      }}
      className="min-h-0 flex-1 overflow-y-auto bg-page/40 px-3 py-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent md:px-5"
    >
      <div ref={content}>
        <QueryState
          query={query}
          errorTitle={t('chat.loadThreadFailed')}
          isEmpty={(list) => list.length === 0}
          empty={<EmptyState title={t('chat.noMessage')} />}
        >
          {(list) => (
            <ol className="flex flex-col gap-2.5">
              {list.map((m) => (
                <Bubble key={m.id} m={m} onMediaLoad={onMediaLoad} />
              ))}
            </ol>
          )}
        </QueryState>
      </div>
    </div>
  );
}

function Bubble({ m, onMediaLoad }: { m: ChatMessage; onMediaLoad: () => void }) {
  const { t } = useI18n();
  const out = isOutgoing(m);
  const text = displayText(m.sms);
  const time = formatDateTime(m.timestamp);
  return (
    <li
      data-testid="chat-message"
      data-direction={out ? 'out' : 'in'}
      className={cx('flex', out ? 'justify-end' : 'justify-start')}
    >
      <div
        className={cx(
          'flex max-w-[85%] flex-col gap-1.5 rounded-2xl px-3 py-2 shadow-xs sm:max-w-[70%]',
          out
            ? 'rounded-br-sm bg-accent text-accent-fg'
            : 'rounded-bl-sm border border-line bg-surface text-fg',
        )}
      >
        {m.mmsFile ? <MessageMedia fileName={m.mmsFile} onLoad={onMediaLoad} /> : null}
        {text ? <p className="break-words whitespace-pre-wrap">{text}</p> : null}
        <p
          className={cx(
            'flex items-center justify-end gap-1 text-[11px] tabular',
            out ? 'text-accent-fg' : 'text-muted',
          )}
        >
          <span className="sr-only">{out ? t('chat.sent', { time }) : t('chat.received', { time })}</span>
          <span aria-hidden>{time}</span>
          {out ? <Delivery m={m} /> : null}
        </p>
      </div>
    </li>
  );
}

/** Green check when status or result is 1, red cross when either is 0, else nothing. */
function Delivery({ m }: { m: ChatMessage }) {
  const { t } = useI18n();
  const kind = deliveryIndicator(m);
  if (kind === 'none') return null;
  if (kind === 'success')
    return (
      <span
        role="img"
        aria-label={t('chat.delivered')}
        title={t('chat.delivered')}
        data-testid="delivery"
        data-state="success"
      >
        <CircleCheck className="size-3.5 rounded-full bg-white text-ok" aria-hidden />
      </span>
    );
  const label = m.statusReason
    ? t('chat.notDeliveredReason', { reason: displayText(m.statusReason) })
    : t('chat.notDelivered');
  return (
    <span role="img" aria-label={label} title={label} data-testid="delivery" data-state="fail">
      <CircleX className="size-3.5 rounded-full bg-white text-bad" aria-hidden />
    </span>
  );
}

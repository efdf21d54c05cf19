import { CONVERSATION_FILTERS, type Conversation, type ConversationFilter } from '@simdock/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { MessagesSquare } from 'lucide-react';
import { EmptyState, QueryState, SearchInput } from '../../components/index.ts';
import { type MessageKey, useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { badgeText, formatDateTime, formatPhone } from '../../lib/format.ts';
import {
  conversationTitle,
  filterConversations,
  hasContactName,
  previewText,
  unreadOf,
} from './chat-logic.ts';

const FILTER_LABEL: Record<ConversationFilter, MessageKey> = {
  all: 'chat.filterAll',
  unread: 'chat.filterUnread',
  replied: 'chat.filterReplied',
};
const EMPTY: Record<ConversationFilter, { title: MessageKey; text: MessageKey }> = {
  all: { title: 'chat.noConversation', text: 'chat.noConversationText' },
  unread: { title: 'chat.noUnread', text: 'chat.noUnreadText' },
  replied: { title: 'chat.noReplied', text: 'chat.noRepliedText' },
};

/** What an empty list is called under a filter ('No Conversation' for All, as the spec says). */
export const emptyListTitle = (filter: ConversationFilter): MessageKey => EMPTY[filter].title;

export interface ConversationListProps {
  /** The list's loading and error state. */
  query: Pick<UseQueryResult<Conversation[]>, 'error' | 'isError' | 'isPending' | 'refetch'>;
  /** The conversations in the order shown (undefined until loaded). */
  list: Conversation[] | undefined;
  filter: ConversationFilter;
  onFilter: (filter: ConversationFilter) => void;
  /** Conversations with unread replies, on the Unread filter. */
  unread: number;
  selectedId: string | null;
  onSelect: (id: string) => void;
  search: string;
  onSearch: (value: string) => void;
}

/**
 * The conversation list (docs/product.md#screens-and-routes) as an inbox: unread replies first, then
 * newest first; All / Unread / Replied (toggle buttons, the pressed one is the page's `?filter=`); search
 * by name or number; each row shows the contact name (or the number), the latest SMS and its time, and
 * an unread badge. A list of buttons: Tab reaches each one, Enter or Space selects it; the selected one
 * is marked `aria-current`.
 */
export function ConversationList({
  query,
  list,
  filter,
  onFilter,
  unread,
  selectedId,
  onSelect,
  search,
  onSearch,
}: ConversationListProps) {
  const { t } = useI18n();
  const empty = EMPTY[filter];
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="border-b border-line p-3">
        <SearchInput
          value={search}
          onChange={(e) => onSearch(e.target.value)}
          placeholder={t('chat.search')}
          aria-label={t('chat.search')}
        />
        <fieldset className="mt-2 flex gap-1 rounded-lg bg-subtle p-1">
          <legend className="sr-only">{t('chat.filter')}</legend>
          {CONVERSATION_FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              aria-pressed={filter === f}
              onClick={() => onFilter(f)}
              className={cx(
                'flex min-h-8 flex-1 items-center justify-center gap-1.5 rounded-md px-2 text-[13px] font-medium transition-colors',
                'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent',
                filter === f ? 'bg-surface text-fg shadow-xs' : 'text-muted hover:text-fg',
              )}
            >
              {t(FILTER_LABEL[f])}
              {f === 'unread' && unread > 0 ? (
                <span className="rounded-full bg-accent px-1.5 text-[11px] leading-4 font-semibold text-accent-fg tabular">
                  {badgeText(unread)}
                </span>
              ) : null}
            </button>
          ))}
        </fieldset>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <QueryState<Conversation[]>
          query={{ ...pick(query), data: list }}
          errorTitle={t('chat.loadConversationsFailed')}
          compact
          isEmpty={(list) => list.length === 0}
          empty={
            <EmptyState
              compact
              title={t(empty.title)}
              text={t(empty.text)}
              icon={<MessagesSquare className="size-6" />}
            />
          }
        >
          {(list) => {
            const shown = filterConversations(list, search);
            if (shown.length === 0)
              return <EmptyState compact title={t('chat.noMatch', { q: search.trim() })} />;
            return (
              <ul aria-label={t('chat.conversations')} className="flex flex-col">
                {shown.map((c) => (
                  <li key={c.conversationId}>
                    <Row c={c} selected={c.conversationId === selectedId} onSelect={onSelect} />
                  </li>
                ))}
              </ul>
            );
          }}
        </QueryState>
      </div>
    </div>
  );
}

/** The query's state alone (the rows come ordered from the page). */
function pick(q: ConversationListProps['query']) {
  return { error: q.error, isError: q.isError, isPending: q.isPending, refetch: q.refetch };
}

function Row({
  c,
  selected,
  onSelect,
}: {
  c: Conversation;
  selected: boolean;
  onSelect: (id: string) => void;
}) {
  const { t } = useI18n();
  const unread = unreadOf(c);
  const title = conversationTitle(c);
  return (
    <button
      type="button"
      onClick={() => onSelect(c.conversationId)}
      aria-current={selected ? 'true' : undefined}
      data-testid="conversation"
      className={cx(
        'flex w-full flex-col gap-0.5 border-b border-line px-3 py-2.5 text-left transition-colors',
        'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent',
        selected ? 'bg-accent-soft' : 'hover:bg-subtle',
      )}
    >
      <span className="flex items-baseline gap-2">
        <span className={cx('min-w-0 flex-1 truncate text-fg', unread > 0 ? 'font-semibold' : 'font-medium')}>
          {title}
        </span>
        <span className="shrink-0 text-xs text-muted tabular">{formatDateTime(c.latestTime)}</span>
      </span>
      {hasContactName(c) ? (
        <span className="font-mono text-xs text-muted">{formatPhone(c.receiver)}</span>
      ) : null}
      <span className="flex items-center gap-2">
        <span className={cx('min-w-0 flex-1 truncate text-[13px]', unread > 0 ? 'text-fg' : 'text-muted')}>
          {previewText(c.latestSms)}
        </span>
        {unread > 0 ? (
          <span
            data-testid="unread-badge"
            className="shrink-0 rounded-full bg-accent px-1.5 py-px text-[11px] font-semibold text-accent-fg tabular"
          >
            <span aria-hidden>{badgeText(unread)}</span>
            <span className="sr-only">{t('chat.unread', { count: unread })}</span>
          </span>
        ) : null}
      </span>
    </button>
  );
}

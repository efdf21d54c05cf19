import type { Conversation } from '@simdock/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { MessagesSquare, Search } from 'lucide-react';
import { EmptyState, Input, QueryState } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { formatDateTime } from '../../lib/format.ts';
import { conversationTitle, filterConversations, previewText, unreadOf } from './chat-logic.ts';

export interface ConversationListProps {
  query: UseQueryResult<Conversation[]>;
  selectedId: string | null;
  onSelect: (id: string) => void;
  search: string;
  onSearch: (value: string) => void;
}

/**
 * The conversation list (docs/product.md#screens-and-routes): search by name or number; each row shows the
 * contact name (or the number), the latest SMS and its time, and an unread badge. A list of buttons: Tab
 * reaches each one, Enter or Space selects it; the selected one is marked `aria-current`.
 */
export function ConversationList({ query, selectedId, onSelect, search, onSearch }: ConversationListProps) {
  const { t } = useI18n();
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="border-b border-line p-3">
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted"
            aria-hidden
          />
          <Input
            type="search"
            value={search}
            onChange={(e) => onSearch(e.target.value)}
            placeholder={t('chat.search')}
            aria-label={t('chat.search')}
            className="pl-8"
          />
        </div>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <QueryState
          query={query}
          errorTitle={t('chat.loadConversationsFailed')}
          compact
          isEmpty={(list) => list.length === 0}
          empty={
            <EmptyState
              compact
              title={t('chat.noConversation')}
              text={t('chat.noConversationText')}
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
      {title !== c.receiver ? <span className="font-mono text-xs text-muted">{c.receiver}</span> : null}
      <span className="flex items-center gap-2">
        <span className={cx('min-w-0 flex-1 truncate text-[13px]', unread > 0 ? 'text-fg' : 'text-muted')}>
          {previewText(c.latestSms)}
        </span>
        {unread > 0 ? (
          <span
            data-testid="unread-badge"
            className="shrink-0 rounded-full bg-accent px-1.5 py-px text-[11px] font-semibold text-accent-fg tabular"
          >
            <span aria-hidden>{unread > 99 ? '99+' : unread}</span>
            <span className="sr-only">{t('chat.unread', { count: unread })}</span>
          </span>
        ) : null}
      </span>
    </button>
  );
}

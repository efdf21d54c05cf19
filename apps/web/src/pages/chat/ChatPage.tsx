import * as Dialog from '@radix-ui/react-dialog';
import type { Conversation } from '@simdock/contract';
import { useQueryClient } from '@tanstack/react-query';
import { MessagesSquare, PanelLeftOpen, PencilLine, X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, EmptyState, PageHeader } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { badgeText, formatPhone } from '../../lib/format.ts';
import { useMediaQuery } from '../../lib/useMediaQuery.ts';
import {
  CONVERSATIONS_POLL_MS,
  markReadInList,
  useConversations,
  usePictures,
  useThread,
  useUnreadCount,
} from './api.ts';
import { ConversationList, emptyListTitle } from './ConversationList.tsx';
import {
  conversationTitle,
  hasContactName,
  inboxOrder,
  parseChatFilter,
  pickSelection,
  previewText,
  unreadOf,
  withChatFilter,
} from './chat-logic.ts';
import { EditContactDialog } from './EditContactDialog.tsx';
import { SendForm } from './SendForm.tsx';
import { Thread } from './Thread.tsx';

/** Below 768 px the conversation list is a slide-over panel (docs/product.md#screens-and-routes). */
const NARROW = '(max-width: 767.98px)';

/**
 * /ChatPage (docs/product.md): the conversation list as an inbox (unread replies first, then newest
 * first; search; All / Unread / Replied in the URL as `?filter=`) and the selected conversation's
 * thread with the send form. The first conversation is selected on load; when the selected one
 * disappears, the first is selected (or none). The list polls every 6 s and the thread every 5 s;
 * the shell's live stream refreshes both sooner (live/live.tsx).
 */
export function ChatPage() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const filter = parseChatFilter(params.get('filter'));
  const conversations = useConversations(filter, CONVERSATIONS_POLL_MS);
  const unread = useUnreadCount(CONVERSATIONS_POLL_MS).data?.conversations ?? 0;
  const [selectedId, setSelectedId] = useState<string | null>(null);
  /** The selection when it had unread replies: it keeps its place while it is read (inboxOrder). */
  const [opened, setOpened] = useState<Conversation | null>(null);
  const [search, setSearch] = useState('');
  const [listOpen, setListOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  /** The phone layout's "Conversations" button: the focus returns to it when the panel closes. */
  const listButton = useRef<HTMLButtonElement>(null);
  const narrow = useMediaQuery(NARROW);
  const data = conversations.data;
  const list = useMemo(
    () => (data ? inboxOrder(data, opened, filter === 'unread') : undefined),
    [data, opened, filter],
  );

  // Auto-select the first; re-select when the selected one disappears.
  useEffect(() => {
    if (!list) return;
    const next = pickSelection(list, selectedId);
    if (next === selectedId) return;
    const c = list.find((x) => x.conversationId === next);
    setSelectedId(next);
    setOpened(c && unreadOf(c) > 0 ? c : null);
  }, [list, selectedId]);

  const selected = list?.find((c) => c.conversationId === selectedId) ?? null;
  const thread = useThread(selected ? selected.conversationId : null);
  const pictures = usePictures(selected ? selected.conversationId : null);

  // Opening a conversation marks it read on the server (every fetch of its thread does): show that
  // in the list at once, also when a list refresh raced the thread's and still counts it unread.
  useEffect(() => {
    if (selectedId && list && thread.isSuccess && thread.dataUpdatedAt > 0) markReadInList(qc, selectedId);
  }, [qc, selectedId, list, thread.isSuccess, thread.dataUpdatedAt]);

  const select = (id: string) => {
    if (id !== selectedId) {
      const c = list?.find((x) => x.conversationId === id);
      setSelectedId(id);
      setOpened(c && unreadOf(c) > 0 ? c : null);
    }
    setListOpen(false);
  };

  const listPanel = (
    <ConversationList
      query={conversations}
      list={list}
      filter={filter}
      onFilter={(f) => setParams((p) => withChatFilter(p, f), { flushSync: true })}
      unread={unread}
      selectedId={selectedId}
      onSelect={select}
      search={search}
      onSearch={setSearch}
    />
  );
  const title = selected ? conversationTitle(selected) : '';

  return (
    <>
      <PageHeader title={t('chat.title')} subtitle={t('chat.subtitle')} />
      <div className="flex h-[calc(100dvh-11rem)] min-h-[26rem] overflow-hidden rounded-xl border border-line bg-surface shadow-xs md:h-[calc(100dvh-13rem)]">
        {narrow ? (
          <Dialog.Root open={listOpen} onOpenChange={setListOpen}>
            <Dialog.Portal>
              <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
              <Dialog.Content
                aria-describedby={undefined}
                onCloseAutoFocus={(e) => {
                  // Radix would refocus a Dialog.Trigger; the panel is opened by the button below.
                  e.preventDefault();
                  listButton.current?.focus();
                }}
                className="fixed inset-y-0 left-0 z-50 flex w-80 max-w-[88vw] flex-col bg-surface shadow-xl focus:outline-none"
              >
                <div className="flex h-14 items-center justify-between border-b border-line px-3">
                  <Dialog.Title className="text-base font-semibold text-fg">
                    {t('chat.conversations')}
                  </Dialog.Title>
                  <Dialog.Close
                    aria-label={t('chat.closeList')}
                    className="inline-flex size-9 items-center justify-center rounded-md text-muted hover:bg-subtle hover:text-fg"
                  >
                    <X className="size-5" aria-hidden />
                  </Dialog.Close>
                </div>
                {listPanel}
              </Dialog.Content>
            </Dialog.Portal>
          </Dialog.Root>
        ) : (
          <aside
            aria-label={t('chat.conversations')}
            className="flex w-80 shrink-0 flex-col border-r border-line lg:w-96"
          >
            {listPanel}
          </aside>
        )}
        <section aria-label={selected ? title : t('chat.title')} className="flex min-w-0 flex-1 flex-col">
          <header className="flex min-h-14 items-center gap-2 border-b border-line px-3 py-2">
            {narrow ? (
              <Button
                size="sm"
                variant="secondary"
                ref={listButton}
                onClick={() => setListOpen(true)}
                aria-haspopup="dialog"
                aria-expanded={listOpen}
                icon={<PanelLeftOpen className="size-4" aria-hidden />}
              >
                {t('chat.openList')}
                {unread > 0 ? (
                  <span className="rounded-full bg-accent px-1.5 text-[11px] font-semibold text-accent-fg tabular">
                    <span aria-hidden>{badgeText(unread)}</span>
                    <span className="sr-only">{t('chat.unread', { count: unread })}</span>
                  </span>
                ) : null}
              </Button>
            ) : null}
            {selected ? (
              <>
                <div className="min-w-0 flex-1">
                  <h2 className="truncate font-semibold text-fg">{title}</h2>
                  <p className="truncate text-xs text-muted">
                    {hasContactName(selected) ? (
                      <span className="font-mono">{formatPhone(selected.receiver)}</span>
                    ) : null}
                    {selected.note ? (
                      <span className={cx(hasContactName(selected) && 'before:mx-1.5 before:content-["·"]')}>
                        {previewText(selected.note)}
                      </span>
                    ) : null}
                  </p>
                </div>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => setEditing(true)}
                  icon={<PencilLine className="size-4" aria-hidden />}
                  aria-label={t('chat.edit')}
                  title={t('chat.edit')}
                >
                  <span className="hidden sm:inline">{t('chat.edit')}</span>
                </Button>
              </>
            ) : (
              <div className="flex-1" />
            )}
          </header>
          {selected ? (
            <>
              <Thread conversationId={selected.conversationId} title={title} query={thread} />
              {/* keyed: another conversation starts with an empty form */}
              <SendForm key={selected.conversationId} conversation={selected} pictures={pictures !== false} />
              <EditContactDialog
                conversation={selected}
                open={editing}
                onClose={() => setEditing(false)}
                onSaved={(c) => setOpened((o) => (o?.conversationId === c.conversationId ? c : o))}
              />
            </>
          ) : (
            <div className="flex flex-1 items-center justify-center">
              <EmptyState
                title={list && list.length === 0 ? t(emptyListTitle(filter)) : t('chat.selectHint')}
                icon={<MessagesSquare className="size-6" />}
              />
            </div>
          )}
        </section>
      </div>
    </>
  );
}

import {
  type Conversation,
  dispatchLiveEvent,
  endpoints,
  type LiveHandlers,
  type Order,
  type UserInfo,
} from '@simdock/contract';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { applyCampaign } from '../api/campaigns.ts';
import { CONVERSATIONS_KEY, threadKey } from '../api/chat.ts';
import { applyOrder, myOrdersQuery } from '../api/orders.ts';
import { ADMIN_PAYMENTS_KEY, MY_PAYMENTS_KEY } from '../api/payments.ts';
import { getToken } from '../api/token.ts';
import { SESSION_QUERY_KEY } from '../api/user.ts';
import { copyText } from '../components/CopyButton.tsx';
import { notify } from '../components/toast.tsx';
import { translate } from '../i18n/index.tsx';
import { formatPhone } from '../lib/format.ts';
import { followSse } from '../lib/sse.ts';
import { signalCode } from './attention.ts';
import { type LiveStatus, shareLive } from './live-share.ts';
import { LiveContext } from './live-status.ts';
import { notifications } from './notifications.ts';

export type { LiveStatus } from './live-share.ts';

export { useLiveStatus } from './live-status.ts';

/**
 * Follows GET /api/Order/stream for the signed-in user on every screen of the shell, so a code can't
 * be missed: each `order` event updates the cached orders (see api/orders.ts applyOrder), and a new
 * code raises a toast with the code and a copy button, adds a bell notification, and badges the tab
 * (title and favicon) while it is hidden, with the sound and browser notification the user turned on.
 * The browser's tabs share one stream (live/live-share.ts). On a reconnection every shown query refetches.
 */
export function LiveOrdersProvider({ username, children }: { username: string; children: ReactNode }) {
  const qc = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  /** The last copy seen of each order, for orders the cache does not hold (Dashboard never opened). */
  const seen = useRef(new Map<string, Order>());

  useEffect(() => {
    notifications.setOwner(username);
    return () => notifications.setOwner(null);
  }, [username]);

  useEffect(() => {
    const abort = new AbortController();
    setStatus('connecting');
    // What each event of the stream does; its data arrives parsed by the contract's `liveEvents`.
    const handlers: LiveHandlers = {
      order: (order) => {
        const { before } = applyOrder(qc, order, seen.current.get(order.id));
        seen.current.set(order.id, order);
        const newCode =
          order.codeText && order.codeText !== before?.codeText && (before || order.status === 'SUCCESS');
        if (newCode && order.codeText)
          announceCode(order.codeText, order.phoneNumber, order.serviceName, order.id);
        // An SMS came in and no code was recognised in it: the user must read it, as they would a code.
        else if (isCodelessSms(order, before))
          announceSms(order.smsText ?? '', order.phoneNumber, order.serviceName, order.id);
      },
      balance: ({ balance }) => applyBalance(qc, balance),
      payment: () => invalidatePayments(qc),
      campaign: (progress) => applyCampaign(qc, progress),
      conversation: (conversation) => applyConversation(qc, conversation),
    };
    // One stream for all the browser's tabs (live/live-share.ts): this tab follows it or gets its events.
    shareLive({
      // One name for the browser: its tabs share the signed-in token (localStorage), hence the user.
      name: 'simdock.live',
      signal: abort.signal,
      follow: (callbacks, signal) =>
        followSse(endpoints.live.stream.path, { token: getToken, signal, ...callbacks }),
      onStatus: setStatus,
      onOpen: (again) => {
        if (again) {
          // The connection is back (the server restarted, the network returned) or another tab
          // took the stream over: events may have been missed and pages may show a failed load.
          // Every query shown refetches (a failed one included); the others are marked stale.
          void qc.invalidateQueries();
          return;
        }
        // The first connection follows the page's own load, unless its orders are old.
        const state = qc.getQueryState(myOrdersQuery.queryKey);
        if (state && Date.now() - state.dataUpdatedAt > 5000)
          void qc.invalidateQueries({ queryKey: myOrdersQuery.queryKey });
      },
      // Unknown events and data that does not fit its event's schema are ignored.
      onMessage: (m) => dispatchLiveEvent(handlers, m.event, m.data),
    });
    return () => abort.abort();
  }, [qc]);

  return <LiveContext.Provider value={status}>{children}</LiveContext.Provider>;
}

/** A `payment` event (a top-up changed state): the payment lists refresh. */
export function invalidatePayments(qc: QueryClient): void {
  void qc.invalidateQueries({ queryKey: MY_PAYMENTS_KEY });
  void qc.invalidateQueries({ queryKey: ADMIN_PAYMENTS_KEY });
}

/** A `balance` event (a top-up credited, a refund): the top bar shows the new balance at once. */
export function applyBalance(qc: QueryClient, balance: number): void {
  // A refetch of the user info already under way (after a reconnection) read the balance before
  // this event: its answer would put the old balance back.
  void qc.cancelQueries({ queryKey: [...SESSION_QUERY_KEY, 'userInfo'] });
  qc.setQueriesData<UserInfo>({ queryKey: [...SESSION_QUERY_KEY, 'userInfo'] }, (old) =>
    old ? { ...old, balance } : old,
  );
}

/**
 * A `conversation` event (a message came in or went out, a delivery report arrived): the list
 * (and the sidebar's unread total) refreshes, and so does that conversation's thread if it is open
 * (invalidation refetches only queries someone is showing).
 */
export function applyConversation(qc: QueryClient, c: Conversation): void {
  void qc.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
  void qc.invalidateQueries({ queryKey: threadKey(c.conversationId) });
}

/**
 * A new SMS on a rental that brought no new code: its text changed while its code did not (a first
 * SMS without one, or a later one on a repeatable rental).
 */
export function isCodelessSms(order: Order, before: Order | undefined): boolean {
  if (!order.smsText || order.smsText === before?.smsText) return false;
  return order.codeText === null || order.codeText === before?.codeText;
}

function announceSms(text: string, phone: string, service: string, orderId: string) {
  const n = notifications.add({
    // One notification per SMS text on the order (a repeat of the same event adds nothing).
    id: `sms-${orderId}-${text.length}-${text.slice(0, 40)}`,
    kind: 'sms',
    href: '/dashboard',
    params: { text, phone, service },
  });
  // Built here, not in components/toast.tsx: that file is in the sign-in page's first load.
  toast.info(translate('notify.smsTitle', { service }), {
    id: n.id,
    description: translate('notify.smsBody', { phone: formatPhone(phone), text }),
    duration: 20_000,
    action: {
      label: translate('notify.copySms'),
      onClick: (e) => {
        e.preventDefault();
        void copyText(text);
      },
    },
    classNames: { title: 'text-[15px]' },
  });
  signalCode({
    title: (count) => translate('notify.smsTabTitle', { count }),
    notification: {
      title: translate('notify.smsTitle', { service }),
      body: translate('notify.smsBody', { phone: formatPhone(phone), text }),
      tag: `code-${orderId}`,
    },
  });
}

function announceCode(code: string, phone: string, service: string, orderId: string) {
  const n = notifications.add({
    id: `code-${orderId}-${code}`,
    kind: 'code',
    href: '/dashboard',
    // The digits: the bell and the toast format them as they show them.
    params: { code, phone, service },
  });
  notify.code({ code, phone, service, id: n.id });
  signalCode({
    title: (count) => translate('notify.tabTitle', { count, code }),
    notification: {
      title: translate('notify.codeTitle', { code, service }),
      body: translate('notify.codeBody', { phone: formatPhone(phone) }),
      tag: `code-${orderId}`,
    },
  });
}

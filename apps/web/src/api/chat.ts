import { type ConversationFilter, endpoints } from '@simdock/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from './client.ts';

/**
 * The chat's conversation lists (one per filter) and unread count, shared by the Chat page, the
 * sidebar's unread badge and the live stream (live/live.tsx): all under CONVERSATIONS_KEY, polled by
 * whoever shows them, refreshed on `conversation` events. The page-only calls live in pages/chat/api.ts.
 */
export const CHAT_KEY = ['chat'] as const;
export const CONVERSATIONS_KEY = [...CHAT_KEY, 'conversations'] as const;
export const threadKey = (conversationId: string) => [...CHAT_KEY, 'thread', conversationId] as const;

/** Conversation polling 6000 ms (the live stream usually gets there first). */
export const CONVERSATIONS_POLL_MS = 6000;
/** Away from the Chat page the sidebar badge is kept fresh by the live stream; this is the fallback. */
export const BADGE_POLL_MS = 30_000;

/** Every filter's list: [...CONVERSATIONS_KEY, 'list', filter] (under the key the live stream refreshes). */
export const conversationListKey = (filter: ConversationFilter) =>
  [...CONVERSATIONS_KEY, 'list', filter] as const;
/** The Chat badge's count, under CONVERSATIONS_KEY too: a `conversation` event refreshes it. */
export const UNREAD_COUNT_KEY = [...CONVERSATIONS_KEY, 'unreadCount'] as const;

/**
 * POST /api/livechat/queryConversation → data.records, unread replies first, then newest first. All
 * is the spec's empty payload; Unread and Replied send `{ filter }`.
 */
export function fetchConversations(filter: ConversationFilter, signal?: AbortSignal) {
  return call(endpoints.livechat.queryConversation, filter === 'all' ? {} : { filter }, { signal });
}

export const conversationsQuery = (filter: ConversationFilter) =>
  queryOptions({
    queryKey: conversationListKey(filter),
    queryFn: ({ signal }) => fetchConversations(filter, signal),
    select: (res) => res.data.records,
  });

export function useConversations(filter: ConversationFilter, pollMs: number = CONVERSATIONS_POLL_MS) {
  return useQuery({ ...conversationsQuery(filter), refetchInterval: pollMs });
}

/** POST /api/livechat/unreadCount → conversations with unread replies (the badge) and those replies. */
export const unreadCountQuery = queryOptions({
  queryKey: UNREAD_COUNT_KEY,
  queryFn: ({ signal }) => call(endpoints.livechat.unreadCount, {}, { signal }),
  select: (res) => res.data,
});

export function useUnreadCount(pollMs: number = BADGE_POLL_MS, enabled = true) {
  return useQuery({ ...unreadCountQuery, refetchInterval: pollMs, enabled });
}

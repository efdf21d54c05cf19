import { endpoints } from '@simdock/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from './client.ts';

/**
 * The chat's conversation list, shared by the Chat page, the sidebar's unread badge and the live
 * stream (app/live.tsx): one cache entry, polled by whoever shows it, refreshed on `conversation`
 * events. The page-only calls live in pages/chat/api.ts.
 */
export const CHAT_KEY = ['chat'] as const;
export const CONVERSATIONS_KEY = [...CHAT_KEY, 'conversations'] as const;
export const threadKey = (conversationId: string) => [...CHAT_KEY, 'thread', conversationId] as const;

/** Conversation polling 6000 ms (the live stream usually gets there first). */
export const CONVERSATIONS_POLL_MS = 6000;
/** Away from the Chat page the sidebar badge is kept fresh by the live stream; this is the fallback. */
export const BADGE_POLL_MS = 30_000;

/** POST /api/livechat/queryConversation (empty payload) → data.records. */
export function fetchConversations(signal?: AbortSignal) {
  return call(endpoints.livechat.queryConversation, {}, { signal });
}

export const conversationsQuery = queryOptions({
  queryKey: CONVERSATIONS_KEY,
  queryFn: ({ signal }) => fetchConversations(signal),
  select: (res) => res.data.records,
});

export function useConversations(pollMs: number = CONVERSATIONS_POLL_MS, enabled = true) {
  return useQuery({ ...conversationsQuery, refetchInterval: pollMs, enabled });
}

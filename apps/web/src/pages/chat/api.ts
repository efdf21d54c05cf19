import {
  type ChatMessage,
  type Conversation,
  endpointPath,
  endpoints,
  type ReplyBody,
  type UpdateConversationBody,
} from '@simdock/contract';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CONVERSATIONS_KEY, threadKey, UNREAD_COUNT_KEY } from '../../api/chat.ts';
import { apiPost, call, callBlob, requireCode1 } from '../../api/client.ts';

export { CONVERSATIONS_POLL_MS, useConversations, useUnreadCount } from '../../api/chat.ts';

/** Thread polling 5000 ms (live `conversation` events refresh it sooner). */
export const THREAD_POLL_MS = 5000;

/**
 * POST /api/livechat/queryConversationDetail {conversationId} → data.msgList, oldest first. Opening
 * it marks the conversation read on the server.
 */
export function fetchThread(conversationId: string, signal?: AbortSignal) {
  return call(endpoints.livechat.queryConversationDetail, { conversationId }, { signal });
}

export const threadQuery = (conversationId: string) =>
  queryOptions({
    queryKey: threadKey(conversationId),
    queryFn: ({ signal }) => fetchThread(conversationId, signal),
    select: (res) => res.data.msgList,
    // A newly selected conversation starts empty and loads (docs/product.md#states-and-colours: clears and
    // reloads the thread).
    staleTime: 0,
  });

/**
 * Whether a reply in this conversation may carry a picture (false when its SIM is in a phone):
 * undefined until the thread loaded. The thread's own query, another view of it.
 */
export function usePictures(conversationId: string | null): boolean | undefined {
  return useQuery({
    ...threadQuery(conversationId ?? ''),
    select: (res) => res.data.pictures,
    enabled: conversationId !== null,
  }).data;
}

export function useThread(conversationId: string | null) {
  return useQuery({
    ...threadQuery(conversationId ?? ''),
    enabled: conversationId !== null,
    refetchInterval: THREAD_POLL_MS,
  });
}

/**
 * The lists' copies of a conversation the user just opened: read, no unread messages; the badge's
 * count is fetched again when one of them was unread (the live event may be late or lost).
 */
export function markReadInList(qc: QueryClient, conversationId: string): void {
  const changed = patchConversation(qc, conversationId, (c) =>
    c.isRead && !c.unreadCount ? c : { ...c, isRead: true, unreadCount: 0 },
  );
  if (changed) void qc.invalidateQueries({ queryKey: UNREAD_COUNT_KEY });
}

type ListAnswer = { code: 1; data: { records: Conversation[] } };

/** Patches the conversation in every cached list (one per filter); true when one changed. */
function patchConversation(qc: QueryClient, id: string, patch: (c: Conversation) => Conversation): boolean {
  let any = false;
  qc.setQueriesData<ListAnswer>({ queryKey: [...CONVERSATIONS_KEY, 'list'] }, (old) => {
    if (!old) return old;
    let changed = false;
    const records = old.data.records.map((c) => {
      if (c.conversationId !== id) return c;
      const next = patch(c);
      if (next !== c) changed = true;
      return next;
    });
    any ||= changed;
    return changed ? { ...old, data: { records } } : old;
  });
  return any;
}

/** POST /api/livechat/updateConversation {conversationId, contactName, note}. */
export function updateConversation(body: UpdateConversationBody) {
  return call(endpoints.livechat.updateConversation, body);
}

export function useUpdateConversation() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['chat', 'update'],
    mutationFn: updateConversation,
    onSuccess: (res) => {
      patchConversation(qc, res.data.conversationId, () => res.data);
      void qc.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
    },
  });
}

/**
 * POST /api/LiveChat/mmsUpload (multipart, one part named `file`); code 1 required (docs/product.md#calls).
 */
export async function uploadMms(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  // A multipart body, which the declaration (no JSON body) cannot type: its path and answer schema.
  const { mmsUpload } = endpoints.livechat;
  return requireCode1(await apiPost(endpointPath(mmsUpload), form, mmsUpload.response[200]));
}

/** POST /api/LiveChat/reply; code 1 required (docs/product.md#calls). */
export async function reply(body: ReplyBody) {
  return requireCode1(await call(endpoints.livechat.reply, body));
}

/** Appends the server's copy of a sent message to the cached thread (the next poll confirms it). */
export function appendToThread(qc: QueryClient, conversationId: string, m: ChatMessage): void {
  qc.setQueryData<{ code: 1; data: { msgList: ChatMessage[]; pictures: boolean } }>(
    threadKey(conversationId),
    (old) => {
      if (!old || old.data.msgList.some((x) => x.id === m.id)) return old;
      return { ...old, data: { ...old.data, msgList: [...old.data.msgList, m] } };
    },
  );
}

/** GET /api/media/<fileName> with the bearer token: the stored media as a Blob. */
export function fetchMedia(fileName: string, signal?: AbortSignal) {
  return callBlob(endpoints.livechat.media, undefined, { params: { fileName }, signal });
}

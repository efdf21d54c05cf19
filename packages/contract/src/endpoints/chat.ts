import { z } from 'zod';
import {
  MmsUploadResponse,
  QueryConversationBody,
  QueryConversationDetailBody,
  QueryConversationDetailResponse,
  QueryConversationResponse,
  ReplyBody,
  ReplyResponse,
  UnreadCountBody,
  UnreadCountResponse,
  UpdateConversationBody,
  UpdateConversationResponse,
} from '../api/messaging.ts';
import { endpoint } from '../endpoint.ts';

/** The Chat page: conversations, their threads, replies and MMS media. */
export const livechat = {
  /** Unread replies first, then newest first; `filter` all (default), unread or replied. */
  queryConversation: endpoint({
    method: 'POST',
    path: '/api/livechat/queryConversation',
    access: 'user',
    tag: 'chat',
    summary: 'Your conversations: unread replies first, then newest first (at most 1000)',
    description:
      'No payload (or `{}`) lists every conversation; `filter` `unread` keeps those with unread replies, `replied` those with at least one incoming reply.',
    body: QueryConversationBody,
    response: { 200: QueryConversationResponse },
  }),
  /** The sidebar's Chat badge: conversations with unread replies (and the replies). */
  unreadCount: endpoint({
    method: 'POST',
    path: '/api/livechat/unreadCount',
    access: 'user',
    tag: 'chat',
    summary: 'How many conversations have unread replies (and how many replies that is)',
    body: UnreadCountBody,
    response: { 200: UnreadCountResponse },
  }),
  /** Opening a thread marks the conversation read. */
  queryConversationDetail: endpoint({
    method: 'POST',
    path: '/api/livechat/queryConversationDetail',
    access: 'user',
    tag: 'chat',
    body: QueryConversationDetailBody,
    errors: ['conversation_not_found'],
    response: { 200: QueryConversationDetailResponse },
  }),
  updateConversation: endpoint({
    method: 'POST',
    path: '/api/livechat/updateConversation',
    access: 'user',
    tag: 'chat',
    body: UpdateConversationBody,
    errors: ['conversation_not_found'],
    response: { 200: UpdateConversationResponse },
  }),
  reply: endpoint({
    method: 'POST',
    path: '/api/LiveChat/reply',
    access: 'user',
    tag: 'chat',
    body: ReplyBody,
    errors: [
      'conversation_not_found',
      'media_not_found',
      'sim_unavailable',
      'sending_disabled',
      'opted_out',
      'country_not_enabled',
      'daily_limit_reached',
      'balance_too_low',
    ],
    response: { 200: ReplyResponse },
  }),
  /**
   * multipart/form-data with one file part (no JSON body to declare); the server documents the
   * accepted types and size.
   */
  mmsUpload: endpoint({
    method: 'POST',
    path: '/api/LiveChat/mmsUpload',
    access: 'user',
    tag: 'chat',
    errors: ['file_required', 'file_too_large', 'file_type_not_allowed'],
    response: { 200: MmsUploadResponse },
  }),
  /** A file answer: read it with `callBlob`. */
  media: endpoint({
    method: 'GET',
    path: '/api/media/:fileName',
    access: 'user',
    tag: 'chat',
    description: 'A stored MMS file, to its owner (and Admin9) only.',
    errors: ['media_not_found'],
    params: z.object({ fileName: z.string().max(512) }),
  }),
};

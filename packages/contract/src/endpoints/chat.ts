import { z } from 'zod';
import {
  MmsUploadResponse,
  QueryConversationBody,
  QueryConversationDetailBody,
  QueryConversationDetailResponse,
  QueryConversationResponse,
  ReplyBody,
  ReplyResponse,
  UpdateConversationBody,
  UpdateConversationResponse,
} from '../api/messaging.ts';
import { endpoint } from '../endpoint.ts';

/** The Chat page: conversations, their threads, replies and MMS media. */
export const livechat = {
  queryConversation: endpoint({
    method: 'POST',
    path: '/api/livechat/queryConversation',
    access: 'user',
    tag: 'chat',
    body: QueryConversationBody,
    response: { 200: QueryConversationResponse },
  }),
  /** Opening a thread marks the conversation read. */
  queryConversationDetail: endpoint({
    method: 'POST',
    path: '/api/livechat/queryConversationDetail',
    access: 'user',
    tag: 'chat',
    body: QueryConversationDetailBody,
    response: { 200: QueryConversationDetailResponse },
  }),
  updateConversation: endpoint({
    method: 'POST',
    path: '/api/livechat/updateConversation',
    access: 'user',
    tag: 'chat',
    body: UpdateConversationBody,
    response: { 200: UpdateConversationResponse },
  }),
  reply: endpoint({
    method: 'POST',
    path: '/api/LiveChat/reply',
    access: 'user',
    tag: 'chat',
    body: ReplyBody,
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
    response: { 200: MmsUploadResponse },
  }),
  /** A file answer: read it with `callBlob`. */
  media: endpoint({
    method: 'GET',
    path: '/api/media/:fileName',
    access: 'user',
    tag: 'chat',
    description: 'A stored MMS file, to its owner (and Admin9) only.',
    params: z.object({ fileName: z.string().max(512) }),
  }),
};

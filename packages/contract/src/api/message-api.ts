import { z } from 'zod';
import { boundedText, TEXT_LIMITS as L } from '../limits.ts';
import { MASS_SEND_MAX_RECIPIENTS } from '../messaging.ts';
import { CHAT_SMS_MAX_CHARS, MMS_FILE_NAME_MAX, MMS_FILE_NAME_PATTERN } from './messaging.ts';

// ---- the messaging API for programs: /api/v1/messages … with `Authorization: Bearer <api key>` ----

/** A message's state as the API reports it; an incoming message is `received`. */
export const API_MESSAGE_STATUSES = [
  'queued',
  'sending',
  'sent',
  'delivered',
  'failed',
  'cancelled',
  'received',
] as const;
export const ApiMessageStatus = z.enum(API_MESSAGE_STATUSES);
export type ApiMessageStatus = z.infer<typeof ApiMessageStatus>;

/** Message ids: `o<n>` for a message we sent, `i<n>` for one we received (the chat's ids). */
export const API_MESSAGE_ID_PATTERN = /^[oi]\d{1,18}$/;
const messageId = z
  .string()
  .regex(API_MESSAGE_ID_PATTERN, 'A message id looks like o123 (sent) or i45 (received).');

export const ApiSendBody = z.object({
  /** One number, or several (the same rules as the sending page: 1 and 10 digits, duplicates dropped). */
  to: z.union([
    boundedText(64, 'to'),
    z.array(boundedText(64, 'to')).min(1, 'Give at least one number.').max(MASS_SEND_MAX_RECIPIENTS),
  ]),
  /** The text; may be empty when `mediaId` is given. Priced by its SMS segments. */
  text: z
    .string()
    .max(CHAT_SMS_MAX_CHARS, `The text must be at most ${CHAT_SMS_MAX_CHARS} characters.`)
    .default(''),
  /** A file uploaded with POST /api/v1/media: the message goes as an MMS (priced as one). */
  mediaId: z
    .string()
    .max(MMS_FILE_NAME_MAX)
    .regex(MMS_FILE_NAME_PATTERN, 'mediaId is the id POST /api/v1/media answered.')
    .optional(),
  /** An MMS's subject. */
  mediaTitle: z.string().max(100).optional(),
  /** Send from this SIM (GET /api/v1/sims); it waits for that SIM, never goes through another. */
  simId: boundedText(L.id, 'simId').optional(),
  /** Send no earlier than this (ISO 8601 with a time zone); at most 30 days ahead. */
  sendAt: z.iso
    .datetime({
      offset: true,
      error: 'sendAt must be an ISO 8601 time with a zone, e.g. 2026-12-01T09:00:00Z.',
    })
    .optional(),
});
export type ApiSendBody = z.input<typeof ApiSendBody>;

export const ApiMessage = z.object({
  id: z.string(),
  direction: z.enum(['in', 'out']),
  status: ApiMessageStatus,
  /** The other party: the recipient of a sent message, the sender of a received one. */
  phoneNumber: z.string(),
  text: z.string(),
  mediaId: z.string().nullable(),
  /** SMS segments of a sent text (an MMS counts 1); null for a received message. */
  segments: z.number().int().nullable(),
  /** USD charged for a sent message (decimal text, up to 4 decimals); null for a received one. */
  cost: z.string().nullable(),
  /** Whether a failed or cancelled message's cost was given back. */
  refunded: z.boolean(),
  campaignId: z.string().nullable(),
  conversationId: z.string(),
  /** The SIM that sent or received it, when known. */
  simId: z.string().nullable(),
  /** Why it failed, for people. */
  reason: z.string().nullable(),
  createdAt: z.string(),
  /** When a device took it (sent) and when it ended (delivered, failed, cancelled). */
  sentAt: z.string().nullable(),
  doneAt: z.string().nullable(),
  /** Not sent before this time (sendAt). */
  sendAt: z.string().nullable(),
});
export type ApiMessage = z.infer<typeof ApiMessage>;

export const ApiSendResponse = z.object({
  campaignId: z.string(),
  messages: z.array(ApiMessage),
  /** USD charged for the whole send, and the balance after. */
  cost: z.string(),
  balance: z.string(),
  duplicatesRemoved: z.number().int(),
  /** Recipients who opted out (STOP): not sent, not charged. */
  skippedOptOut: z.number().int(),
  /** True when this answer is the first one of an earlier request with the same Idempotency-Key. */
  repeated: z.boolean(),
});
export type ApiSendResponse = z.infer<typeof ApiSendResponse>;

export const ApiMessageParams = z.object({ id: messageId });
export const ApiMessageResponse = z.object({ message: ApiMessage });

export const ApiMessagesQuery = z.object({
  direction: z.enum(['in', 'out']).optional(),
  /** Only messages at or after this time (ISO 8601). */
  since: z.iso.datetime({ offset: true, error: 'since must be an ISO 8601 time with a zone.' }).optional(),
  /** Only this conversation's messages. */
  conversation: z
    .string()
    .regex(/^\d{1,18}$/, 'conversation is a conversation id (digits).')
    .optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const ApiMessagesResponse = z.object({
  /** Newest first. */
  messages: z.array(ApiMessage),
  page: z.number().int(),
  limit: z.number().int(),
  /** Whether a next page has more. */
  hasMore: z.boolean(),
});

export const ApiConversation = z.object({
  id: z.string(),
  phoneNumber: z.string(),
  contactName: z.string(),
  lastMessage: z.string(),
  lastAt: z.string(),
  unread: z.number().int(),
  /** The SIM replies leave from (null until a message was sent). */
  simId: z.string().nullable(),
});
export type ApiConversation = z.infer<typeof ApiConversation>;
export const ApiConversationsQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const ApiConversationsResponse = z.object({
  conversations: z.array(ApiConversation),
  page: z.number().int(),
  limit: z.number().int(),
  hasMore: z.boolean(),
});

export const ApiSim = z.object({
  id: z.string(),
  /** The SIM's number, when known. */
  number: z.string().nullable(),
  operator: z.string().nullable(),
  gateway: z.string(),
  /** Can send right now (registered, on an online gateway, not locked, below its caps). */
  ready: z.boolean(),
  /** Its device can send MMS. */
  mms: z.boolean(),
});
export type ApiSim = z.infer<typeof ApiSim>;
export const ApiSimsResponse = z.object({ sims: z.array(ApiSim) });

export const ApiMediaResponse = z.object({
  /** Give it as `mediaId` to POST /api/v1/messages. */
  mediaId: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});

import { z } from 'zod';
import { interpolate, messagingMessages } from '../messages.ts';
import { MASS_SEND_MAX_RECIPIENTS, MASS_SEND_TEXT_MAX_CHARS } from '../messaging.ts';
import { PageCursorFields, PagedAnswerFields } from '../pagination.ts';
import { isPrice } from '../pricing.ts';
import { MessageCountry } from './places.ts';

/**
 * Messaging calls (docs/product.md): mass send, outreach settings, history, chat. Payload field names are
 * the spec's, exactly. Bounds are hard caps against abuse; the rules in messaging.ts give the texts a
 * person sees for the limits they can actually reach.
 */

/** Unix time in seconds (docs/product.md#limits-and-timings). Up to year 9999. */
const UnixSeconds = z.number().int().min(0).max(253_402_300_799);
const Id = z.string().min(1).max(64);
/** A stored media name as the upload answered it: name + one extension, no path. */
export const MMS_FILE_NAME_PATTERN = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)?$/;
export const MMS_FILE_NAME_MAX = 128;
/** One chat message: ten concatenated GSM-7 parts. */
export const CHAT_SMS_MAX_CHARS = 1530;
export const CONTACT_NAME_MAX = 100;
export const CONTACT_NOTE_MAX = 500;

// ─── Mass send: POST /api/MassOutreach/sendMassSMS ────────────────────────────────────────────────

/**
 * Recipients and message variants, each newline-joined (docs/product.md#calls). Rules: `validateMassSend`.
 */
export const MassSendBody = z.object({
  number: z.string().max(MASS_SEND_TEXT_MAX_CHARS, 'The recipient list is too long.'),
  mess: z.string().max(MASS_SEND_TEXT_MAX_CHARS, 'The message content is too long.'),
});
export type MassSendBody = z.infer<typeof MassSendBody>;

export const MassSendData = z.object({
  campaignId: z.string(),
  /** Messages queued: one per recipient. */
  queued: z.number().int().min(0),
  /** Repeated numbers sent once. */
  duplicatesRemoved: z.number().int().min(0),
  /** Recipients who asked not to be messaged again. */
  skippedOptOut: z.number().int().min(0),
  /** USD charged for the send (0 when messaging is free); refunded per message that fails or is cancelled. */
  cost: z.number().min(0),
  /** The user's balance after the charge. */
  balance: z.number().min(0),
});
export type MassSendData = z.infer<typeof MassSendData>;

/** code 1 = success (msg 'Send successful!'); failures are the `{code: 0, msg}` error body. */
export const MassSendResponse = z.object({
  code: z.union([z.literal(0), z.literal(1)]),
  msg: z.string(),
  data: MassSendData.optional(),
});
export type MassSendResponse = z.infer<typeof MassSendResponse>;

// ─── Settings: POST /api/MassOutreach/getSettings, POST /api/Admin/updateSettings ──────────────────

/** Upper bound of MaxMsgPerDay. */
export const MAX_MSG_PER_DAY_CAP = 100_000_000;

/** Settings as the sending page reads them (docs/product.md#entities; default 0). */
export const MassOutreachSettings = z.object({
  maxBatchSendSms: z.number().int().min(0),
  maxMsgPerDay: z.number().int().min(0),
  /** Per SIM and UTC day / month: messages a SIM sends at most (0 = no cap). */
  simMaxSmsPerDay: z.number().int().min(0),
  simMaxSmsPerMonth: z.number().int().min(0),
  /** Consecutive failed sends that lock a SIM (0 = never). */
  simLockAfterFailures: z.number().int().min(0),
  /** How long an automatic lock lasts (0 = until an admin unlocks it). */
  simCooldownMinutes: z.number().int().min(0),
  /**
   * SIMs kept for sending: this percent (rounded down) of the online, unlocked SIMs with role Both
   * is never taken by rentals, so bulk SMS and chat always have them (default 20; 0 = rentals may
   * take every SIM). Roles still reserve SIMs outright.
   */
  simsKeptForSendingPercent: z.number().int().min(0).max(100),
  /**
   * No SIM can send right now (each is busy with a rental, locked, reserved for rentals, at its cap
   * or offline): messages sent now wait in the queue for a free SIM.
   */
  noFreeSim: z.boolean(),
  /** USD per SMS segment (GSM-7 160/153, UCS-2 70/67 characters) and per MMS; 0 = free. */
  smsPricePerSegment: z.number().min(0),
  mmsPrice: z.number().min(0),
  /**
   * Destination countries with their own prices (null: the defaults above) or switched off, and
   * whether the countries not listed may be sent to: the sending page prices each recipient by them.
   */
  countries: z.array(MessageCountry),
  otherCountriesEnabled: z.boolean(),
});
export type MassOutreachSettings = z.infer<typeof MassOutreachSettings>;

const batchInvalid = interpolate(messagingMessages.maxBatchSendSmsInvalid, { max: MASS_SEND_MAX_RECIPIENTS });
const dailyInvalid = interpolate(messagingMessages.maxMsgPerDayInvalid, { max: MAX_MSG_PER_DAY_CAP });

/** Upper bounds of the SIM settings. */
export const SIM_MAX_SMS_PER_DAY_CAP = 100_000;
export const SIM_MAX_SMS_PER_MONTH_CAP = 3_000_000;
export const SIM_LOCK_AFTER_FAILURES_CAP = 1000;
export const SIM_COOLDOWN_MINUTES_CAP = 43_200;

/** A whole number 0..max with one message for every way it can be wrong; absent keeps the stored value. */
function wholeSetting(template: string, max: number) {
  const msg = interpolate(template, { max });
  return z.number({ error: msg }).int(msg).min(0, msg).max(max, msg).optional();
}

/** A price setting: USD ≥ 0 with up to 4 decimals, as a number or decimal text; absent keeps the stored value. */
function priceSetting(template: string) {
  return z
    .union([z.number(), z.string().max(32)], { error: template })
    .refine((v) => isPrice(v), template)
    .optional();
}

/**
 * Save payload (docs/product.md#calls): capitalised names; whole numbers ≥ 0. Every field is
 * optional: one left out keeps its stored value (a partial save never turns sending off).
 */
export const UpdateSettingsBody = z.object({
  MaxBatchSendSms: z
    .number({ error: batchInvalid })
    .int(batchInvalid)
    .min(0, batchInvalid)
    .max(MASS_SEND_MAX_RECIPIENTS, batchInvalid)
    .optional(),
  MaxMsgPerDay: z
    .number({ error: dailyInvalid })
    .int(dailyInvalid)
    .min(0, dailyInvalid)
    .max(MAX_MSG_PER_DAY_CAP, dailyInvalid)
    .optional(),
  SimMaxSmsPerDay: wholeSetting(messagingMessages.simMaxSmsPerDayInvalid, SIM_MAX_SMS_PER_DAY_CAP),
  SimMaxSmsPerMonth: wholeSetting(messagingMessages.simMaxSmsPerMonthInvalid, SIM_MAX_SMS_PER_MONTH_CAP),
  SimLockAfterFailures: wholeSetting(
    messagingMessages.simLockAfterFailuresInvalid,
    SIM_LOCK_AFTER_FAILURES_CAP,
  ),
  SimCooldownMinutes: wholeSetting(messagingMessages.simCooldownMinutesInvalid, SIM_COOLDOWN_MINUTES_CAP),
  SimsKeptForSendingPercent: wholeSetting(messagingMessages.simsKeptForSendingInvalid, 100),
  SmsPricePerSegment: priceSetting(messagingMessages.smsPriceInvalid),
  MmsPrice: priceSetting(messagingMessages.mmsPriceInvalid),
});
export type UpdateSettingsBody = z.input<typeof UpdateSettingsBody>;

// ─── History: POST /api/MassOutreach/querymsg ────────────────────────────────────────────────────

/**
 * Page sizes the History page offers (docs/product.md#limits-and-timings); the server accepts any size
 * 1..500.
 */
export const HISTORY_PAGE_SIZES = [10, 20, 50, 100, 200, 500] as const;
export const HISTORY_DEFAULT_PAGE_SIZE = 50;
export const HISTORY_MAX_PAGE_SIZE = 500;

/** A filter value the original sends as number or string; '' means no filter. */
const FilterValue = z.union([z.number().int(), z.string().max(64)]).optional();

export const QueryMsgParams = z
  .object({
    name: z.string().max(100).optional(),
    status: FilterValue,
    seatId: FilterValue,
    type: FilterValue,
    /** Start of the first day, epoch seconds. */
    strTime: UnixSeconds.optional(),
    /** End of the last day, epoch seconds. */
    endTime: UnixSeconds.optional(),
  })
  .refine((p) => p.strTime === undefined || p.endTime === undefined || p.endTime >= p.strTime, {
    error: messagingMessages.historyRangeInvalid,
    path: ['endTime'],
  });
export type QueryMsgParams = z.infer<typeof QueryMsgParams>;

export const QueryMsgBody = z.object({
  current: z.number().int().min(1).max(1_000_000).default(1),
  size: z.number().int().min(1).max(HISTORY_MAX_PAGE_SIZE).default(HISTORY_DEFAULT_PAGE_SIZE),
  params: QueryMsgParams.default({}),
  ...PageCursorFields,
});
export type QueryMsgBody = z.input<typeof QueryMsgBody>;

export const HistoryRecord = z.object({
  id: z.string(),
  receiver: z.string(),
  sms: z.string(),
  /** Sender's name (username) as the row shows it. */
  userAlias: z.string(),
  /**
   * 1 = delivered, 0 = failed, 3 = sent (the carrier took it; the handset's delivery report has not
   * come: devices that report the two apart), other values = not final yet (queued, sending).
   */
  status: z.number().int(),
  statusReason: z.string().nullable(),
  /** Admin9 only (docs/product.md#roles); null for other users. */
  smsGateway: z.string().nullable(),
  smsPort: z.string().nullable(),
  timestamp: UnixSeconds,
  /** USD the message was charged when accepted (0 when messaging was free). */
  cost: z.number().min(0),
  /** Its cost was given back (it failed or was cancelled). */
  refunded: z.boolean(),
  /** A picture message (MMS): History marks the row. */
  mms: z.boolean(),
});
export type HistoryRecord = z.infer<typeof HistoryRecord>;

/** Totals of the period. Rates are percentages, 0–100. */
export const HistorySummary = z.object({
  numCnt: z.number().int().min(0),
  success: z.number().int().min(0),
  replyUserCnt: z.number().int().min(0),
  successRate: z.number().min(0).max(100),
  replyRate: z.number().min(0).max(100),
});
export type HistorySummary = z.infer<typeof HistorySummary>;

export const QueryMsgResponse = z.object({
  code: z.literal(1),
  data: z.object({
    sum: HistorySummary,
    records: z.array(HistoryRecord),
    /** Records matching the query; pages fall back to sum.numCnt when absent (historyTotalPages). */
    total: z.number().int().min(0),
    ...PagedAnswerFields,
  }),
});
export type QueryMsgResponse = z.infer<typeof QueryMsgResponse>;

// ─── Chat: /api/livechat/* ───────────────────────────────────────────────────────────────────────

export const Conversation = z.object({
  conversationId: z.string(),
  receiver: z.string(),
  contactName: z.string(),
  note: z.string(),
  latestSms: z.string(),
  latestTime: UnixSeconds,
  isRead: z.boolean(),
  /** Incoming messages not read yet (the badge). */
  unreadCount: z.number().int().min(0).optional(),
});
export type Conversation = z.infer<typeof Conversation>;

/** 1 = outgoing; anything else incoming (docs/product.md#entities). */
export const UP_DOWN_OUTGOING = 1;
export const UP_DOWN_INCOMING = 0;

export const ChatMessage = z.object({
  id: z.string(),
  sms: z.string(),
  upDownType: z.number().int(),
  timestamp: UnixSeconds,
  /** Stored media name, fetched from the media path; null without media. */
  mmsFile: z.string().nullable(),
  /** Delivery: see `deliveryIndicator`. */
  status: z.number().int().nullable(),
  result: z.number().int().nullable(),
  statusReason: z.string().nullable(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/**
 * Which conversations the chat lists: every one, those with unread replies, or those with at least
 * one incoming reply.
 */
export const CONVERSATION_FILTERS = ['all', 'unread', 'replied'] as const;
export const ConversationFilter = z.enum(CONVERSATION_FILTERS);
export type ConversationFilter = z.infer<typeof ConversationFilter>;

/**
 * POST /api/livechat/queryConversation: the spec's payload is empty (docs/product.md#calls), and no
 * body at all or `{}` still lists every conversation. `filter` (default all) narrows the list.
 * Conversations with unread replies come first, then the rest newest first; at most 1000.
 */
export const QueryConversationBody = z.object({ filter: ConversationFilter.optional() }).optional();
export type QueryConversationBody = z.input<typeof QueryConversationBody>;
export const QueryConversationResponse = z.object({
  code: z.literal(1),
  data: z.object({ records: z.array(Conversation) }),
});
export type QueryConversationResponse = z.infer<typeof QueryConversationResponse>;

/** POST /api/livechat/unreadCount (no payload): the Chat item's badge, like a mail inbox's. */
export const UnreadCountBody = z.object({}).optional();
export const UnreadCountResponse = z.object({
  code: z.literal(1),
  data: z.object({
    /** Conversations with at least one unread reply (the badge). */
    conversations: z.number().int().min(0),
    /** Unread replies over all of them. */
    replies: z.number().int().min(0),
  }),
});
export type UnreadCountResponse = z.infer<typeof UnreadCountResponse>;

/** POST /api/livechat/queryConversationDetail. */
export const QueryConversationDetailBody = z.object({ conversationId: Id });
export type QueryConversationDetailBody = z.infer<typeof QueryConversationDetailBody>;
export const QueryConversationDetailResponse = z.object({
  code: z.literal(1),
  data: z.object({
    msgList: z.array(ChatMessage),
    /** A reply may carry a picture: false when the conversation's SIM is in a phone (no MMS). */
    pictures: z.boolean(),
  }),
});
export type QueryConversationDetailResponse = z.infer<typeof QueryConversationDetailResponse>;

/** POST /api/livechat/updateConversation: the contact's name and note (trimmed). */
export const UpdateConversationBody = z.object({
  conversationId: Id,
  contactName: z
    .string()
    .trim()
    .max(CONTACT_NAME_MAX, `Name must be at most ${CONTACT_NAME_MAX} characters.`),
  note: z.string().trim().max(CONTACT_NOTE_MAX, `Note must be at most ${CONTACT_NOTE_MAX} characters.`),
});
export type UpdateConversationBody = z.input<typeof UpdateConversationBody>;
export const UpdateConversationResponse = z.object({
  code: z.literal(1),
  msg: z.string(),
  data: Conversation,
});
export type UpdateConversationResponse = z.infer<typeof UpdateConversationResponse>;

/**
 * POST /api/LiveChat/reply (docs/product.md). The page sends simNo 1 and mmsType 1 with a file, else 0;
 * the server replies through the port the receiver already knows. Text or file is required.
 */
export const ReplyBody = z
  .object({
    conversationId: Id,
    sms: z.string().max(CHAT_SMS_MAX_CHARS, `A message must be at most ${CHAT_SMS_MAX_CHARS} characters.`),
    toNumber: z.string().max(32),
    simNo: z.number().int().min(0).max(1024).default(1),
    mmsType: z.union([z.literal(0), z.literal(1)]).default(0),
    mmsTitle: z.string().max(100).default(''),
    mmsFile: z
      .union([
        z.literal(''),
        z.string().max(MMS_FILE_NAME_MAX).regex(MMS_FILE_NAME_PATTERN, 'Invalid media file name.'),
      ])
      .default(''),
  })
  .refine((b) => b.sms.trim() !== '' || b.mmsFile !== '', {
    error: messagingMessages.chatEmpty,
    path: ['sms'],
  });
export type ReplyBody = z.input<typeof ReplyBody>;

export const ReplyResponse = z.object({
  code: z.union([z.literal(0), z.literal(1)]),
  msg: z.string(),
  /** The stored outgoing message. */
  data: ChatMessage.optional(),
});
export type ReplyResponse = z.infer<typeof ReplyResponse>;

/** POST /api/LiveChat/mmsUpload (multipart, one file part): the stored name to put in `mmsFile`. */
export const MmsUploadResponse = z.object({
  code: z.union([z.literal(0), z.literal(1)]),
  msg: z.string(),
  fileName: z.string(),
});
export type MmsUploadResponse = z.infer<typeof MmsUploadResponse>;

// ─── Outreach settings (admin read) and campaigns ────────────────────────────────────────────────

/** POST /api/Admin/getOutreachSettings: the limits plus who changed them last. */
export const AdminOutreachSettings = MassOutreachSettings.extend({
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type AdminOutreachSettings = z.infer<typeof AdminOutreachSettings>;

/** A campaign id as the send answer gave it (digits). */
const CampaignId = z
  .string()
  .max(20)
  .regex(/^\d{1,18}$/, 'Unknown campaign.');

/** POST /api/MassOutreach/campaign: one campaign's progress; without an id, the user's latest. */
export const CampaignBody = z.object({ campaignId: CampaignId.optional() }).optional();
export type CampaignBody = z.input<typeof CampaignBody>;

export const CampaignProgress = z.object({
  campaignId: z.string(),
  createdAt: UnixSeconds,
  /** Messages stored by the send (recipients after opt-outs). */
  total: z.number().int().min(0),
  /** Waiting for a SIM (including messages being handed to a device right now). */
  queued: z.number().int().min(0),
  /** Accepted by a device, result not reported yet. */
  sent: z.number().int().min(0),
  /** The device reported success (status 1). */
  delivered: z.number().int().min(0),
  failed: z.number().int().min(0),
  cancelled: z.number().int().min(0),
  /** True when no message is queued or in flight. */
  finished: z.boolean(),
  /** Messages of this campaign are queued and no SIM can take them now (rented, locked, at a cap, offline). */
  waitingForSim: z.boolean(),
  /** USD: what the send was charged, what has been given back for failed or cancelled messages, and the rest. */
  cost: z.number().min(0),
  refunded: z.number().min(0),
  netCost: z.number().min(0),
});
export type CampaignProgress = z.infer<typeof CampaignProgress>;

export const CampaignResponse = z.object({ code: z.literal(1), data: CampaignProgress.nullable() });
export type CampaignResponse = z.infer<typeof CampaignResponse>;

/**
 * POST /api/MassOutreach/cancel: stops one campaign (or, without an id, every unfinished campaign of
 * the user). Messages not yet handed to a device become cancelled; the others keep their result.
 */
export const CancelCampaignBody = z.object({ campaignId: CampaignId.optional() }).optional();
export type CancelCampaignBody = z.input<typeof CancelCampaignBody>;
export const CancelCampaignResponse = z.object({
  code: z.literal(1),
  msg: z.string(),
  data: z.object({ cancelled: z.number().int().min(0) }),
});
export type CancelCampaignResponse = z.infer<typeof CancelCampaignResponse>;

/** POST /api/MassOutreach/exportmsg {params}: the filtered records as CSV (text/csv). */
export const ExportMsgBody = z.object({ params: QueryMsgParams.default({}) }).optional();
export type ExportMsgBody = z.input<typeof ExportMsgBody>;

// ─── History chart: POST /api/MassOutreach/dailyStats ───────────────────────────────────────────

/** At most this many days in one chart request. */
export const DAILY_STATS_MAX_DAYS = 366;

/**
 * Per-day series over [strTime, endTime] (epoch seconds, as querymsg). Days are cut at strTime's time
 * of day (the client's local midnight), so a day is [strTime + k·86400, strTime + (k+1)·86400).
 */
export const DailyStatsBody = z
  .object({ strTime: UnixSeconds, endTime: UnixSeconds })
  .refine((b) => b.endTime >= b.strTime, { error: messagingMessages.historyRangeInvalid, path: ['endTime'] })
  .refine((b) => b.endTime - b.strTime < DAILY_STATS_MAX_DAYS * 86_400, {
    error: `The range must not exceed ${DAILY_STATS_MAX_DAYS} days.`,
    path: ['endTime'],
  });
export type DailyStatsBody = z.infer<typeof DailyStatsBody>;

export const DailyStatsPoint = z.object({
  /** Start of the day, epoch seconds. */
  dayStart: UnixSeconds,
  /** Messages of that day (not cancelled). */
  sent: z.number().int().min(0),
  /** Of those, reported successful. */
  delivered: z.number().int().min(0),
  /** Replies received that day. */
  replies: z.number().int().min(0),
});
export type DailyStatsPoint = z.infer<typeof DailyStatsPoint>;

export const DailyStatsResponse = z.object({
  code: z.literal(1),
  data: z.object({ days: z.array(DailyStatsPoint) }),
});
export type DailyStatsResponse = z.infer<typeof DailyStatsResponse>;

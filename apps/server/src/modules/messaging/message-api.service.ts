// The messaging API for programs (/api/v1/messages …): sends go through the sending page's one
// implementation (queueSend: rules, limits, opt-outs, prices, the fair queue), reads show a user's
// sent and received messages under the chat's ids.
import {
  type ApiConversation,
  type ApiMessage,
  type ApiSendBody,
  type ApiSendResponse,
  type ApiSim,
  amountText,
  smsSegments,
  validateApiSend,
} from '@simdock/contract';
import type { AppContext, AuthUser } from '../../context.ts';
import { badInput, conflict, DomainError, notFound } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { balanceOf } from '../billing/index.ts';
import { messagingSims } from '../gateways/index.ts';
import { simsInOpenRentals } from '../rental/index.ts';
import { ownsMedia } from './media.queries.ts';
import {
  type ApiMessageRow,
  apiConversations,
  apiMessage,
  apiMessages,
  campaignApiMessages,
} from './message-api.queries.ts';
import { campaignsMayHaveFinished } from './message-events.service.ts';
import { campaignByClientRef, cancelQueuedMessage, releaseDaily } from './messaging.queries.ts';
import { queueSend, sendingSettings } from './messaging.service.ts';
import { refundEndedMessages } from './refunds.service.ts';

/** How far ahead a send may be scheduled. */
export const SEND_AT_MAX_MS = 30 * 24 * 3600_000;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toApiMessage(r: ApiMessageRow): ApiMessage {
  const out = r.direction === 'out';
  return {
    id: r.id,
    direction: r.direction,
    status: r.status as ApiMessage['status'],
    phoneNumber: r.phone_number,
    text: r.text,
    mediaId: r.mms_file,
    segments: out ? (r.mms_file ? 1 : Math.max(1, smsSegments(r.text).segments)) : null,
    cost: out && r.cost !== null ? amountText(r.cost) : null,
    refunded: r.refunded,
    campaignId: r.campaign_id,
    conversationId: r.conversation_id,
    simId: r.sim_id,
    reason: r.reason,
    createdAt: r.created_at.toISOString(),
    sentAt: iso(r.sent_at),
    doneAt: iso(r.done_at),
    sendAt: iso(r.send_at),
  };
}

const messageNotFound = () => notFound('Message not found.', 'message_not_found');
const isUniqueViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === '23505';

/**
 * The answer to a send, read back from what was stored: the first answer again for a repeated
 * Idempotency-Key (its messages as they stand now).
 */
async function sendAnswer(
  ctx: AppContext,
  userId: string,
  campaignId: string,
  repeated: boolean,
): Promise<ApiSendResponse> {
  const [campaign] = await ctx.db.query<{
    cost: string;
    duplicates_removed: number;
    skipped_opt_out: number;
  }>('SELECT cost::text AS cost, duplicates_removed, skipped_opt_out FROM campaigns WHERE id = $1::bigint', [
    campaignId,
  ]);
  const rows = await campaignApiMessages(ctx.db, userId, campaignId);
  return {
    campaignId,
    messages: rows.map(toApiMessage),
    cost: amountText(campaign?.cost ?? '0'),
    balance: amountText((await balanceOf(ctx.db, userId)) ?? '0'),
    duplicatesRemoved: campaign?.duplicates_removed ?? 0,
    skippedOptOut: campaign?.skipped_opt_out ?? 0,
    repeated,
  };
}

/** The SIM a send is pinned to: one of the user's choosable SIMs, able to send an MMS when it is one. */
async function pinnedSim(ctx: AppContext, simId: string, mms: boolean): Promise<string> {
  const sims = await messagingSims(ctx.db, ctx.clock.now());
  const sim = isUuid(simId) ? sims.find((s) => s.id === simId.toLowerCase()) : undefined;
  if (!sim) {
    throw notFound('No SIM with this id can send for you (see GET /api/v1/sims).', 'sim_not_found');
  }
  if (mms && !sim.sendsMms) {
    throw new DomainError(
      'sim_unavailable',
      'This SIM is in a phone, which cannot send MMS; choose another SIM or send text only.',
      'simId',
    );
  }
  return sim.id;
}

/**
 * POST /api/v1/messages. With an Idempotency-Key, one send per key and user: a retry (or a
 * parallel twin) answers the first send and queues nothing; a different body under a used key is
 * still the first send (the key names the request).
 */
export async function apiSend(
  ctx: AppContext,
  user: AuthUser,
  body: ApiSendBody,
  idempotencyKey?: string,
  /** Beyond the REST body: not sent after `validUntil` (SMPP's validity_period). */
  options: { validUntil?: Date } = {},
): Promise<ApiSendResponse> {
  if (idempotencyKey !== undefined) {
    const first = await campaignByClientRef(ctx.db, user.id, idempotencyKey);
    if (first) return sendAnswer(ctx, user.id, first, true);
  }
  const settings = await sendingSettings(ctx);
  const to = typeof body.to === 'string' ? [body.to] : body.to;
  const text = body.text ?? '';
  const plan = validateApiSend(
    { to, text, hasMedia: body.mediaId !== undefined },
    settings.max_batch_send_sms,
  );
  if (!plan.ok) throw badInput(plan.error.text, plan.field);
  if (body.mediaId !== undefined && !(await ownsMedia(ctx.db, user.id, body.mediaId))) {
    throw notFound(
      'The media file was not found; upload it again with POST /api/v1/media.',
      'media_not_found',
    );
  }
  const mms = body.mediaId !== undefined ? { file: body.mediaId, title: body.mediaTitle ?? '' } : null;
  const pinnedSimId = body.simId !== undefined ? await pinnedSim(ctx, body.simId, mms !== null) : null;
  const now = ctx.clock.now();
  let notBefore: Date | null = null;
  if (body.sendAt !== undefined) {
    const at = new Date(body.sendAt);
    if (at.getTime() - now.getTime() > SEND_AT_MAX_MS) {
      throw badInput('sendAt must be at most 30 days ahead.', 'sendAt');
    }
    notBefore = at > now ? at : null;
  }
  try {
    const sent = await ctx.db.tx((q) =>
      queueSend(q, ctx, user, plan, settings, {
        clientRef: idempotencyKey ?? null,
        pinnedSimId,
        notBefore,
        validUntil: options.validUntil ?? null,
        mms,
        field: 'to',
      }),
    );
    return sendAnswer(ctx, user.id, sent.campaignId, false);
  } catch (err) {
    // A parallel request with the same key committed first: its send is the answer.
    if (idempotencyKey !== undefined && isUniqueViolation(err)) {
      const first = await campaignByClientRef(ctx.db, user.id, idempotencyKey);
      if (first) return sendAnswer(ctx, user.id, first, true);
    }
    throw err;
  }
}

/** The messages of the user's send made under `clientRef` (its Idempotency-Key), or undefined. */
export async function messagesOfSend(
  ctx: AppContext,
  userId: string,
  clientRef: string,
): Promise<ApiMessage[] | undefined> {
  const campaignId = await campaignByClientRef(ctx.db, userId, clientRef);
  if (!campaignId) return undefined;
  return (await campaignApiMessages(ctx.db, userId, campaignId)).map(toApiMessage);
}

export async function apiGetMessage(ctx: AppContext, userId: string, id: string): Promise<ApiMessage> {
  const row = await apiMessage(ctx.db, userId, id);
  if (!row) throw messageNotFound();
  return toApiMessage(row);
}

export async function apiListMessages(
  ctx: AppContext,
  userId: string,
  query: { direction?: 'in' | 'out'; since?: string; conversation?: string; page: number; limit: number },
) {
  const rows = await apiMessages(
    ctx.db,
    userId,
    {
      direction: query.direction,
      since: query.since ? new Date(query.since) : undefined,
      conversation: query.conversation,
    },
    query.limit,
    (query.page - 1) * query.limit,
  );
  return {
    messages: rows.slice(0, query.limit).map(toApiMessage),
    page: query.page,
    limit: query.limit,
    hasMore: rows.length > query.limit,
  };
}

export async function apiListConversations(
  ctx: AppContext,
  userId: string,
  query: { page: number; limit: number },
) {
  const rows = await apiConversations(ctx.db, userId, query.limit, (query.page - 1) * query.limit);
  const conversations: ApiConversation[] = rows.slice(0, query.limit).map((r) => ({
    id: r.id,
    phoneNumber: r.receiver,
    contactName: r.contact_name,
    lastMessage: r.latest_sms,
    lastAt: r.latest_time.toISOString(),
    unread: r.unread_count,
    simId: r.sim_id,
  }));
  return { conversations, page: query.page, limit: query.limit, hasMore: rows.length > query.limit };
}

/** Cancels a message no device has taken; its cost is given back. */
export async function apiCancelMessage(ctx: AppContext, userId: string, id: string): Promise<ApiMessage> {
  const before = await apiMessage(ctx.db, userId, id);
  if (!before) throw messageNotFound();
  if (before.direction === 'in' || before.status !== 'queued') {
    throw conflict(
      before.direction === 'in'
        ? 'A received message cannot be cancelled.'
        : `This message is ${before.status}: only a queued message can be cancelled.`,
      undefined,
      'message_not_cancellable',
    );
  }
  const done = await ctx.db.tx(async (q) => {
    const at = ctx.clock.now();
    const row = await cancelQueuedMessage(q, userId, id.slice(1), at);
    if (row) {
      await releaseDaily(q, userId, row.day, 1);
      if (row.campaign_id) await campaignsMayHaveFinished(q, ctx, [row.campaign_id], at);
    }
    return row;
  });
  if (!done) {
    // A dispatcher took it between the read and the cancel.
    const now = await apiMessage(ctx.db, userId, id);
    throw conflict(
      `This message is ${now?.status ?? 'gone'}: only a queued message can be cancelled.`,
      undefined,
      'message_not_cancellable',
    );
  }
  await refundEndedMessages(ctx);
  return toApiMessage((await apiMessage(ctx.db, userId, id))!);
}

/** The SIMs the caller may pin a send to. */
export async function apiSims(ctx: AppContext): Promise<ApiSim[]> {
  const now = ctx.clock.now();
  const [sims, renting] = await Promise.all([messagingSims(ctx.db, now), simsInOpenRentals(ctx.db, now)]);
  const busy = new Set(renting);
  return sims.map((s) => ({
    id: s.id,
    number: s.number,
    operator: s.operator,
    gateway: s.gateway_name,
    ready: s.ready && !busy.has(s.id),
    mms: s.sendsMms,
  }));
}

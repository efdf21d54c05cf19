import type { AppContext, MessageEvent } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import {
  finishCampaigns,
  lockOpenCampaigns,
  openCampaignsWithNothingLeft,
  type Touched,
} from './dispatch.queries.ts';

// Messaging events (`message.sent`, `message.delivered`, `message.failed`, `message.received`,
// `campaign.finished`) handed to the registry's listeners (webhooks) inside the transaction that
// made the change: a rollback takes the events with it, a commit cannot lose them.

const ENDED = new Set(['delivered', 'failed', 'cancelled']);

const outgoing = (t: Touched, type: MessageEvent['type'], status: string, at: Date): MessageEvent => ({
  type,
  userId: t.user_id,
  messageId: `o${t.id}`,
  campaignId: t.campaign_id,
  campaignRef: t.campaign_ref,
  conversationId: t.conversation_id,
  direction: 'out',
  phoneNumber: t.recipient,
  // Our SIM's number lives with the gateways module's SIMs; not read here (one more read per change).
  simNumber: null,
  text: t.body,
  status,
  reason: type === 'message.failed' ? t.status_reason : null,
  at,
});

/**
 * The events of changed outgoing messages, in order: `message.sent` for a message a device accepted,
 * `message.delivered` (after a `message.sent` when the device's report came before its answer was
 * recorded, so that every delivered message was sent first), `message.failed` for a final failure.
 * Rows that went back to the queue or were cancelled give none.
 */
export function outgoingEvents(rows: readonly Touched[], at: Date): MessageEvent[] {
  const out: MessageEvent[] = [];
  for (const t of rows) {
    if (t.status === 'sent') {
      // The carrier's acceptance of a message already sent is no new event.
      if (t.prev_status !== 'sent') out.push(outgoing(t, 'message.sent', 'sent', at));
    } else if (t.status === 'delivered') {
      if (t.prev_status === 'sending') out.push(outgoing(t, 'message.sent', 'sent', at));
      out.push(outgoing(t, 'message.delivered', 'delivered', at));
    } else if (t.status === 'failed') out.push(outgoing(t, 'message.failed', 'failed', at));
  }
  return out;
}

/** Hands events to every listener, in order (a listener's batch form takes them together). */
export async function emitMessageEvents(
  q: Queryable,
  ctx: AppContext,
  events: readonly MessageEvent[],
): Promise<void> {
  if (events.length === 0) return;
  for (const listener of ctx.registry.messageEventListeners) {
    if (listener.many) await listener.many(q, events, ctx);
    else for (const e of events) await listener(q, e, ctx);
  }
}

/**
 * Campaigns whose messages may all have ended now: those that did are marked finished and emit
 * `campaign.finished`, exactly once (the campaign rows are locked, then a guarded update). Call it
 * in the transaction that ended the messages, after the change.
 */
export async function campaignsMayHaveFinished(
  q: Queryable,
  ctx: AppContext,
  campaignIds: readonly (string | null)[],
  at: Date,
): Promise<void> {
  const ids = [...new Set(campaignIds.filter((c): c is string => c !== null))].sort(
    (a, b) => Number(a) - Number(b),
  );
  if (ids.length === 0) return;
  await lockOpenCampaigns(q, ids);
  const done = await finishCampaigns(q, ids, at);
  await emitMessageEvents(
    q,
    ctx,
    done.map(
      (c): MessageEvent => ({
        type: 'campaign.finished',
        userId: c.user_id,
        campaignId: c.id,
        campaignRef: c.client_ref,
        counts: { delivered: c.delivered, failed: c.failed, cancelled: c.cancelled },
        at,
      }),
    ),
  );
}

/** After a change of outgoing messages: their events, then the campaigns they may have ended. */
export async function messagesChanged(
  q: Queryable,
  ctx: AppContext,
  rows: readonly Touched[],
  at: Date,
): Promise<void> {
  await emitMessageEvents(q, ctx, outgoingEvents(rows, at));
  await campaignsMayHaveFinished(
    q,
    ctx,
    rows.filter((t) => ENDED.has(t.status)).map((t) => t.campaign_id),
    at,
  );
}

/**
 * Catches campaigns whose messages all ended by a path that did not tell (a crash between the
 * change and this check cannot happen: they share a transaction; but an ending written elsewhere
 * can). The job runs it; a batch at a time.
 */
export async function finishQuietCampaigns(ctx: AppContext, limit = 100): Promise<number> {
  const at = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const ids = await openCampaignsWithNothingLeft(q, limit);
    await campaignsMayHaveFinished(q, ctx, ids, at);
    return ids.length;
  });
}

import { createHash } from 'node:crypto';
import { cleanText } from '@simdock/contract';
import type { AppContext, SmsConsumer, StoredSms } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { isDbUnavailable } from '../../db/errors.ts';
import type { IncomingSmsItem } from './driver/driver.ts';
import { touchGatewayOnCommit } from './gateways.queries.ts';
import { findRecentRepeat, insertIncomingSms, markMatched } from './inbox.queries.ts';

export interface IncomingSms extends IncomingSmsItem {
  gatewayId: string;
  /** Overrides the content key (the admin's simulated SMS are all distinct, even when identical). */
  dedupeKey?: string;
}

export interface IngestResult {
  /** Ids of the newly stored rows, in input order. */
  stored: string[];
  duplicates: number;
  /** Rows the database refused; each is logged and skipped, the others are stored. */
  failed: number;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * An SMS without a device time (the plain-text forward) counts as a repeat of an identical one
 * (same gateway, port, sender and text) stored within this window before it.
 */
export const REPEAT_WINDOW_MS = 15 * 60_000;

/**
 * The dedupe decision.
 * - With a device time: same SMS, same key — gateway + port + device time + sender + text. A push
 *   and its duplicate, or a push and the pull catch-up of the same inbox row, agree on all of them.
 * - Without one (plain-text forward, `ts: null`), no key can tell a device's repeat of the same
 *   forward (seconds or minutes later) from a genuinely new identical SMS, and a key built on the
 *   receive minute stored the repeat again once the minute changed. So the rule is a window: an
 *   identical SMS (gateway, port, sender, text, report flag; any device time) already stored in
 *   the last REPEAT_WINDOW_MS is a repeat and is not stored. An identical text after the window is
 *   a new SMS (services send the same wording again; codes differ anyway). Concurrent copies are
 *   serialised by a transaction-level advisory lock on the content, so two pushes of the same
 *   forward cannot both pass the check. The stored key is the content plus the receive time.
 *   Returns undefined for a repeat.
 */
export async function dedupeKey(q: Queryable, m: IncomingSms, receivedAt: Date): Promise<string | undefined> {
  const textHash = sha256(m.text);
  if (m.ts !== null) {
    return sha256(
      JSON.stringify([m.gatewayId, m.port, String(m.ts), m.sender, m.isReport ? 1 : 0, textHash]),
    );
  }
  const content = sha256(JSON.stringify([m.gatewayId, m.port, m.sender, m.isReport ? 1 : 0, textHash]));
  await q.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [content]);
  const since = new Date(receivedAt.getTime() - REPEAT_WINDOW_MS);
  if (await findRecentRepeat(q, m, since)) return undefined;
  return `nots:${content}:${receivedAt.getTime()}`;
}

/** Device and user text, storable: no NUL, no lone surrogates (one rule, in the contract). */
function cleaned(m: IncomingSms): IncomingSms {
  return {
    ...m,
    sender: cleanText(m.sender),
    recipient: m.recipient === null ? null : cleanText(m.recipient),
    text: cleanText(m.text),
    ...(m.iccid ? { iccid: cleanText(m.iccid) } : {}),
  };
}

export interface IngestOptions {
  /** A device push: the gateway's lastUpdate is set to this time in the same transaction. */
  touch?: { gatewayId: string; at: Date };
}

/**
 * Stores incoming SMS exactly once and hands each new one (not receipts) to the consumers inside
 * the same transaction; consumers publish their own events (an order's code, a chat reply).
 */
export async function ingestIncomingSms(
  ctx: AppContext,
  items: IncomingSms[],
  opts: IngestOptions = {},
): Promise<IngestResult> {
  const consumers = ctx.registry.smsConsumers;
  const touch = async (q: Queryable) => {
    if (opts.touch) await touchGatewayOnCommit(q, opts.touch.gatewayId, opts.touch.at);
  };
  if (items.length === 0) {
    await touch(ctx.db);
    return { stored: [], duplicates: 0, failed: 0 };
  }
  const receivedAt = ctx.clock.now();
  if (items.length === 1) {
    // The common push: one SMS, one transaction. First without savepoints (each is a round trip);
    // if anything fails, again with a savepoint around each consumer, so a failing consumer cannot
    // lose the SMS. A row the database refuses even then is logged and counted as failed, like a
    // row of a batch.
    const item = cleaned(items[0]!);
    const attempt = (isolate: boolean) =>
      ctx.db.tx(async (q) => {
        const id = await storeOne(ctx, q, item, receivedAt, consumers, isolate);
        await touch(q);
        return id;
      });
    try {
      const id = await attempt(false).catch((err) => {
        if (isDbUnavailable(err)) throw err;
        return attempt(true);
      });
      return { stored: id ? [id] : [], duplicates: id ? 0 : 1, failed: 0 };
    } catch (err) {
      if (isDbUnavailable(err)) throw err;
      ctx.log.error({ err, gatewayId: item.gatewayId, port: item.port }, 'incoming SMS not stored');
      await touch(ctx.db);
      return { stored: [], duplicates: 0, failed: 1 };
    }
  }
  let failed = 0;
  const stored = await ctx.db.tx(async (q) => {
    await touch(q);
    const ids: string[] = [];
    for (const item of items) {
      // One row the database refuses must not lose the others: each row has its own savepoint.
      try {
        const id = await q.savepoint(() => storeOne(ctx, q, cleaned(item), receivedAt, consumers, true));
        if (id) ids.push(id);
      } catch (err) {
        // A lost connection ends the batch (nothing is lost: it is retried).
        if (isDbUnavailable(err)) throw err;
        failed += 1;
        ctx.log.error({ err, gatewayId: item.gatewayId, port: item.port }, 'incoming SMS not stored');
      }
    }
    return ids;
  });
  return { stored, duplicates: items.length - stored.length - failed, failed };
}

/** Stores one SMS unless it is a duplicate and hands it to the consumers; the new row's id. */
async function storeOne(
  ctx: AppContext,
  q: Queryable,
  m: IncomingSms,
  receivedAt: Date,
  consumers: readonly SmsConsumer[],
  isolate: boolean,
): Promise<string | undefined> {
  const key = m.dedupeKey ?? (await dedupeKey(q, m, receivedAt));
  if (key === undefined) return undefined;
  const row = await insertIncomingSms(q, {
    gatewayId: m.gatewayId,
    port: m.port,
    iccid: m.iccid ?? null,
    sender: m.sender,
    recipient: m.recipient,
    body: m.text,
    isReport: m.isReport,
    deviceTs: m.ts,
    receivedAt,
    dedupeKey: key,
  });
  if (!row) return undefined;
  if (m.isReport) return row.id;
  const sms: StoredSms = {
    id: row.id,
    gatewayId: m.gatewayId,
    port: m.port,
    simId: row.sim_id,
    simNumber: row.sim_number,
    iccid: row.iccid,
    sender: m.sender,
    recipient: m.recipient,
    text: m.text,
    deviceTs: m.ts,
    receivedAt,
    ...(m.attachments?.length ? { attachments: m.attachments } : {}),
  };
  if (await handOff(ctx, q, sms, consumers, isolate)) await markMatched(q, row.id);
  return row.id;
}

/**
 * The first consumer that takes the SMS wins. With `isolate`, a failing one is isolated by a
 * savepoint; without, its error fails the whole transaction (the caller tries again isolated).
 */
async function handOff(
  ctx: AppContext,
  q: Queryable,
  sms: StoredSms,
  consumers: readonly SmsConsumer[],
  isolate: boolean,
): Promise<boolean> {
  if (!isolate) {
    for (const consume of consumers) if (await consume(q, sms, ctx)) return true;
    return false;
  }
  for (const consume of consumers) {
    try {
      if (await q.savepoint(() => consume(q, sms, ctx))) return true;
    } catch (err) {
      if (isDbUnavailable(err)) throw err;
      ctx.log.error({ err, smsId: sms.id, consumer: consume.name || 'anonymous' }, 'SMS consumer failed');
    }
  }
  return false;
}

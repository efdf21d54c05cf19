import { cleanText } from '@simdock/contract';
import type { AppContext, ArrivingSms, SmsConsumer, StoredSms } from '../../context.ts';
import { sha256 } from '../../crypto.ts';
import type { Queryable } from '../../db/db.ts';
import { isDbUnavailable } from '../../db/errors.ts';
import { type GroupCommit, groupCommit } from '../../db/group-commit.ts';
import { runtimeKey } from '../../runtime.ts';
import type { IncomingSmsItem } from './driver/driver.ts';
import { touchGatewayOnCommit } from './gateways.queries.ts';
import {
  findRecentRepeat,
  type InsertedSms,
  type InsertSms,
  insertIncomingSms,
  insertIncomingSmsMany,
  markMatched,
} from './inbox.queries.ts';

/** `dedupeKey`, when set, overrides the content key (a device's own SMS id; the admin's simulated SMS). */
export interface IncomingSms extends IncomingSmsItem {
  gatewayId: string;
}

export interface IngestResult {
  /** Ids of the newly stored rows, in input order. */
  stored: string[];
  duplicates: number;
  /** Rows the database refused; each is logged and skipped, the others are stored. */
  failed: number;
}

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
  const touch = async (q: Queryable) => {
    if (opts.touch) await touchGatewayOnCommit(q, opts.touch.gatewayId, opts.touch.at);
  };
  if (items.length === 0) {
    await touch(ctx.db);
    return { stored: [], duplicates: 0, failed: 0 };
  }
  const receivedAt = ctx.clock.now();
  if (items.length === 1)
    return ctx.runtime
      .get(SMS_GROUP_COMMIT, () => smsGroupCommit(ctx))
      .submit({ item: cleaned(items[0]!), receivedAt, opts });
  let failed = 0;
  const stored = await ctx.db.tx(async (q) => {
    await touch(q);
    const isolated = handOffIsolated(ctx, q);
    const batch = items.map((item) => ({ item: cleaned(item), receivedAt }));
    if (insertableTogether(batch)) {
      // A page of the device's inbox (the pull catch-up) is mostly SMS the pushes already stored:
      // one insert for the page, consumers isolated. If the database refuses a row, the page is
      // stored again row by row below.
      try {
        const ids = await q.savepoint(() => storeMany(q, batch, isolated));
        return ids.filter((id): id is string => id !== undefined);
      } catch (err) {
        if (isDbUnavailable(err)) throw err;
      }
    }
    const ids: string[] = [];
    for (const item of items) {
      // One row the database refuses must not lose the others: each row has its own savepoint.
      try {
        const id = await q.savepoint(() => storeOne(q, cleaned(item), receivedAt, isolated));
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

interface SinglePush {
  item: IncomingSms;
  receivedAt: Date;
  opts: IngestOptions;
}

/** The most SMS one group commit stores; more wait for the next. */
const GROUP_MAX = 64;
/**
 * How many group commits one server runs at once. One: with two or four at once the batches were
 * smaller and each SMS cost more CPU on both sides (measured, bench/RESULTS.md); while one runs, the
 * next pushes gather into the next batch.
 */
const GROUP_PARALLEL = 1;

/**
 * Single-SMS pushes (the common case: one device push, one SMS) are stored by group commit
 * (`db/group-commit.ts`): pushes that arrive while a transaction is storing SMS are stored together
 * in the next one: one BEGIN, one insert and one COMMIT for all of them. Round trips, not
 * statements, are what an SMS costs here, so under load the cost per SMS falls as the queue grows
 * instead of the queue growing without bound. Idle, nothing waits.
 *
 * A batch is taken in (gateway, port) order, so two batches lock the same orders and gateways in
 * the same order; SMS of one port keep their arrival order. The batch runs without savepoints. If
 * it fails for any reason but a lost database, each push is stored again on its own (one port's SMS
 * in order, ports side by side) with a savepoint around each consumer, so a bad SMS or a failing
 * consumer cannot lose the others; a row the database refuses even then is logged and counted as
 * failed. One queue per server (`ctx.runtime`).
 */
const SMS_GROUP_COMMIT = runtimeKey<GroupCommit<SinglePush, IngestResult>>('gateways.smsGroupCommit');

function smsGroupCommit(ctx: AppContext): GroupCommit<SinglePush, IngestResult> {
  return groupCommit<SinglePush, IngestResult>({
    maxBatch: GROUP_MAX,
    parallel: GROUP_PARALLEL,
    order: byPort,
    lane: portKey,
    fatal: isDbUnavailable,
    together: async (batch) => {
      const ids = await storeTogether(ctx, batch);
      return ids.map((id) => ({ stored: id ? [id] : [], duplicates: id ? 0 : 1, failed: 0 }));
    },
    alone: (p) => storeAlone(ctx, p),
  });
}

/** One transaction for the batch; the new row's id per push (undefined: a duplicate). */
function storeTogether(ctx: AppContext, batch: SinglePush[]): Promise<(string | undefined)[]> {
  return ctx.db.tx(async (q) => {
    const ids = await storeMany(q, batch, handOffTogether(ctx, q));
    // Each gateway's lastUpdate once, at its latest push of the batch.
    const touched = new Map<string, Date>();
    for (const p of batch) if (p.opts.touch) touched.set(p.opts.touch.gatewayId, p.opts.touch.at);
    for (const [gatewayId, at] of [...touched].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      await touchGatewayOnCommit(q, gatewayId, at);
    return ids;
  });
}

/** One push on its own, each consumer isolated by a savepoint. */
async function storeAlone(ctx: AppContext, p: SinglePush): Promise<IngestResult> {
  const touch = async (q: Queryable) => {
    if (p.opts.touch) await touchGatewayOnCommit(q, p.opts.touch.gatewayId, p.opts.touch.at);
  };
  try {
    const id = await ctx.db.tx(async (q) => {
      const stored = await storeOne(q, p.item, p.receivedAt, handOffIsolated(ctx, q));
      await touch(q);
      return stored;
    });
    return { stored: id ? [id] : [], duplicates: id ? 0 : 1, failed: 0 };
  } catch (err) {
    if (isDbUnavailable(err)) throw err;
    ctx.log.error({ err, gatewayId: p.item.gatewayId, port: p.item.port }, 'incoming SMS not stored');
    await touch(ctx.db);
    return { stored: [], duplicates: 0, failed: 1 };
  }
}

/** (gateway, port) order; stable, so one port's SMS keep their order. */
function byPort(a: SinglePush, b: SinglePush): number {
  const x = portKey(a);
  const y = portKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const portKey = (p: SinglePush) => `${p.item.gatewayId}\u0000${p.item.port}`;

/**
 * How newly stored SMS reach the consumers in one transaction: `one` for an SMS on its own, `many`
 * (if given) for SMS stored with one insert, all at once; without it they go to `one` in turn. Each
 * answers whether a consumer took the SMS.
 */
interface HandOff {
  one: (sms: StoredSms) => Promise<boolean>;
  many?: (list: readonly StoredSms[]) => Promise<boolean[]>;
  /** If given: the consumers' reads for SMS about to be stored, issued beside their insert. */
  readAhead?: (arriving: readonly ArrivingSms[]) => void;
}

/**
 * Consumers without savepoints: the first consumer that takes an SMS wins, a batch goes to each
 * consumer at once (its batch form if it has one); an error fails the whole transaction (the group
 * commit then stores each push again isolated).
 */
function handOffTogether(ctx: AppContext, q: Queryable): HandOff {
  const consumers = ctx.registry.smsConsumers;
  return {
    one: async (sms) => {
      for (const consume of consumers) if (await consume(q, sms, ctx)) return true;
      return false;
    },
    many: (list) => handOffMany(ctx, q, list, consumers),
    readAhead: (arriving) => {
      for (const consume of consumers) consume.readAhead?.(q, arriving, ctx);
    },
  };
}

/** Each SMS on its own, each consumer in a savepoint: a failing one is logged and skipped. */
function handOffIsolated(ctx: AppContext, q: Queryable): HandOff {
  const consumers = ctx.registry.smsConsumers;
  return {
    one: async (sms) => {
      for (const consume of consumers) {
        try {
          if (await q.savepoint(() => consume(q, sms, ctx))) return true;
        } catch (err) {
          if (isDbUnavailable(err)) throw err;
          ctx.log.error({ err, smsId: sms.id, consumer: consume.name || 'anonymous' }, 'SMS consumer failed');
        }
      }
      return false;
    },
  };
}

/** Stores one SMS unless it is a duplicate and hands it to the consumers; the new row's id. */
async function storeOne(
  q: Queryable,
  m: IncomingSms,
  receivedAt: Date,
  handOff: HandOff,
): Promise<string | undefined> {
  const key = m.dedupeKey ?? (await dedupeKey(q, m, receivedAt));
  if (key === undefined) return undefined;
  // The consumers' reads go out with the insert (same write, one round trip).
  const inserting = insertIncomingSms(q, rowOf(m, receivedAt, key));
  if (!m.isReport) handOff.readAhead?.([arriving(m, receivedAt)]);
  const row = await inserting;
  if (!row) return undefined;
  // A receipt is stored, never handed on; a new SMS taken by a consumer is marked matched.
  if (!m.isReport && (await handOff.one(storedSms(m, receivedAt, row)))) await markMatched(q, row.id);
  return row.id;
}

/**
 * Several SMS can be stored with one insert unless one is a forward without device time: that
 * needs its repeat check before it is stored, in order with the others.
 */
function insertableTogether(batch: readonly { item: IncomingSms }[]): boolean {
  return batch.length > 1 && batch.every((p) => p.item.dedupeKey !== undefined || p.item.ts !== null);
}

/**
 * Stores several SMS with one insert, then hands the new ones to the consumers in order; the new
 * rows' ids (undefined: a duplicate). Not insertable together: one SMS at a time.
 */
async function storeMany(
  q: Queryable,
  batch: readonly { item: IncomingSms; receivedAt: Date }[],
  handOff: HandOff,
): Promise<(string | undefined)[]> {
  const ids: (string | undefined)[] = [];
  if (!insertableTogether(batch)) {
    for (const p of batch) ids.push(await storeOne(q, p.item, p.receivedAt, handOff));
    return ids;
  }
  const rows: InsertSms[] = [];
  for (const p of batch)
    rows.push(rowOf(p.item, p.receivedAt, p.item.dedupeKey ?? (await dedupeKey(q, p.item, p.receivedAt))!));
  const inserting = insertIncomingSmsMany(q, rows);
  handOff.readAhead?.(batch.flatMap((p) => (p.item.isReport ? [] : [arriving(p.item, p.receivedAt)])));
  const inserted = await inserting;
  const fresh: StoredSms[] = [];
  for (const [i, p] of batch.entries()) {
    const key = rows[i]!.dedupeKey;
    const row = inserted.get(key);
    inserted.delete(key); // a second SMS with the same key in the batch is its duplicate
    ids.push(row?.id);
    if (row && !p.item.isReport) fresh.push(storedSms(p.item, p.receivedAt, row));
  }
  if (!handOff.many) {
    for (const sms of fresh) if (await handOff.one(sms)) await markMatched(q, sms.id);
    return ids;
  }
  const taken = await handOff.many(fresh);
  for (const [i, sms] of fresh.entries()) if (taken[i]) await markMatched(q, sms.id);
  return ids;
}

/**
 * handOff for SMS stored together: each consumer sees, in order, the SMS no earlier consumer took,
 * all at once if it has a batch form. The same outcome as handing each SMS on in turn (consumers
 * depend only on their own state); an error fails the batch.
 */
async function handOffMany(
  ctx: AppContext,
  q: Queryable,
  list: readonly StoredSms[],
  consumers: readonly SmsConsumer[],
): Promise<boolean[]> {
  const taken = list.map(() => false);
  for (const consume of consumers) {
    const left = [...list.keys()].filter((i) => !taken[i]);
    if (left.length === 0) break;
    if (consume.many) {
      const took = await consume.many(
        q,
        left.map((i) => list[i]!),
        ctx,
      );
      left.forEach((i, k) => {
        if (took[k]) taken[i] = true;
      });
    } else {
      for (const i of left) if (await consume(q, list[i]!, ctx)) taken[i] = true;
    }
  }
  return taken;
}

function rowOf(m: IncomingSms, receivedAt: Date, key: string): InsertSms {
  return {
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
  };
}

function arriving(m: IncomingSms, receivedAt: Date): ArrivingSms {
  return { gatewayId: m.gatewayId, port: m.port, receivedAt, deviceTs: m.ts };
}

function storedSms(m: IncomingSms, receivedAt: Date, row: InsertedSms): StoredSms {
  return {
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
}

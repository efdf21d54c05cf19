import { createHash } from 'node:crypto';
import { cleanText } from '@simdock/contract';
import type { AppContext, SmsConsumer, StoredSms } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { isDbUnavailable } from '../../db/errors.ts';
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
  if (items.length === 1) return groupCommit(ctx).submit({ item: cleaned(items[0]!), receivedAt, opts });
  let failed = 0;
  const stored = await ctx.db.tx(async (q) => {
    await touch(q);
    const batch = items.map((item) => ({ item: cleaned(item), receivedAt }));
    if (insertableTogether(batch)) {
      // A page of the device's inbox (the pull catch-up) is mostly SMS the pushes already stored:
      // one insert for the page, consumers isolated. If the database refuses a row, the page is
      // stored again row by row below.
      try {
        const ids = await q.savepoint(() => storeMany(ctx, q, batch, consumers, true));
        return ids.filter((id): id is string => id !== undefined);
      } catch (err) {
        if (isDbUnavailable(err)) throw err;
      }
    }
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
 * Single-SMS pushes (the common case: one device push, one SMS) are stored by group commit. A push
 * that arrives while fewer than GROUP_PARALLEL transactions are storing SMS starts one at once;
 * pushes that arrive meanwhile wait and are stored together in the next free one: one BEGIN, one
 * insert and one COMMIT for all of them. Round trips, not statements, are what an SMS costs here,
 * so under load the cost per SMS falls as the queue grows instead of the queue growing without
 * bound. Idle, nothing waits.
 *
 * A batch is taken in (gateway, port) order, so two batches lock the same orders and gateways in
 * the same order; SMS of one port keep their arrival order. The batch runs without savepoints. If
 * it fails for any reason but a lost database, each push is stored again on its own with a
 * savepoint around each consumer, so a bad SMS or a failing consumer cannot lose the others; a row
 * the database refuses even then is logged and counted as failed.
 */
class GroupCommit {
  private readonly waiting: Array<
    SinglePush & { resolve: (r: IngestResult) => void; reject: (err: unknown) => void }
  > = [];
  private inFlight = 0;

  constructor(private readonly ctx: AppContext) {}

  submit(push: SinglePush): Promise<IngestResult> {
    return new Promise<IngestResult>((resolve, reject) => {
      this.waiting.push({ ...push, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < GROUP_PARALLEL && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, GROUP_MAX).sort(byPort);
      this.inFlight += 1;
      void this.run(batch).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  private async run(batch: GroupCommit['waiting']): Promise<void> {
    let ids: (string | undefined)[] | undefined;
    try {
      ids = await this.storeTogether(batch);
    } catch (err) {
      if (isDbUnavailable(err)) {
        for (const p of batch) p.reject(err);
        return;
      }
    }
    if (ids) {
      batch.forEach((p, i) => {
        const id = ids[i];
        p.resolve({ stored: id ? [id] : [], duplicates: id ? 0 : 1, failed: 0 });
      });
      return;
    }
    // Stored again one by one: one port's SMS in order, ports side by side. Not awaited, so a push
    // that is slow on its own (a lock held elsewhere) does not hold up the next batches.
    const ports = new Map<string, typeof batch>();
    for (const p of batch) ports.set(portKey(p), [...(ports.get(portKey(p)) ?? []), p]);
    for (const pushes of ports.values()) {
      void (async () => {
        for (const p of pushes) await this.storeAlone(p).then(p.resolve, p.reject);
      })();
    }
  }

  /** One transaction for the batch; the new row's id per push (undefined: a duplicate). */
  private storeTogether(batch: SinglePush[]): Promise<(string | undefined)[]> {
    const { ctx } = this;
    return ctx.db.tx(async (q) => {
      const ids = await storeMany(ctx, q, batch, ctx.registry.smsConsumers, false);
      // Each gateway's lastUpdate once, at its latest push of the batch.
      const touched = new Map<string, Date>();
      for (const p of batch) if (p.opts.touch) touched.set(p.opts.touch.gatewayId, p.opts.touch.at);
      for (const [gatewayId, at] of [...touched].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
        await touchGatewayOnCommit(q, gatewayId, at);
      return ids;
    });
  }

  /** One push on its own, each consumer isolated by a savepoint. */
  private async storeAlone(p: SinglePush): Promise<IngestResult> {
    const { ctx } = this;
    const touch = async (q: Queryable) => {
      if (p.opts.touch) await touchGatewayOnCommit(q, p.opts.touch.gatewayId, p.opts.touch.at);
    };
    try {
      const id = await ctx.db.tx(async (q) => {
        const stored = await storeOne(ctx, q, p.item, p.receivedAt, ctx.registry.smsConsumers, true);
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
}

/** (gateway, port) order; stable, so one port's SMS keep their order. */
function byPort(a: SinglePush, b: SinglePush): number {
  const x = portKey(a);
  const y = portKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const portKey = (p: SinglePush) => `${p.item.gatewayId}\u0000${p.item.port}`;

const groupCommits = new WeakMap<AppContext, GroupCommit>();
function groupCommit(ctx: AppContext): GroupCommit {
  let g = groupCommits.get(ctx);
  if (!g) {
    g = new GroupCommit(ctx);
    groupCommits.set(ctx, g);
  }
  return g;
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
  const row = await insertIncomingSms(q, rowOf(m, receivedAt, key));
  return row ? handOffStored(ctx, q, m, receivedAt, row, consumers, isolate) : undefined;
}

/**
 * Several SMS can be stored with one insert unless one is a forward without device time: that
 * needs its repeat check before it is stored, in order with the others.
 */
function insertableTogether(batch: readonly { item: IncomingSms }[]): boolean {
  return batch.length > 1 && batch.every((p) => p.item.dedupeKey !== undefined || p.item.ts !== null);
}

/**
 * Stores several SMS with one insert, then hands each new one to the consumers in order; the new
 * rows' ids (undefined: a duplicate). With `isolate`, each SMS goes to the consumers on its own,
 * each consumer in a savepoint; without, each consumer takes the whole batch at once (its batch
 * form if it has one) and an error fails the batch. Not insertable together: one SMS at a time.
 */
async function storeMany(
  ctx: AppContext,
  q: Queryable,
  batch: readonly { item: IncomingSms; receivedAt: Date }[],
  consumers: readonly SmsConsumer[],
  isolate: boolean,
): Promise<(string | undefined)[]> {
  const ids: (string | undefined)[] = [];
  if (!insertableTogether(batch)) {
    for (const p of batch) ids.push(await storeOne(ctx, q, p.item, p.receivedAt, consumers, isolate));
    return ids;
  }
  const rows: InsertSms[] = [];
  for (const p of batch)
    rows.push(rowOf(p.item, p.receivedAt, p.item.dedupeKey ?? (await dedupeKey(q, p.item, p.receivedAt))!));
  const inserted = await insertIncomingSmsMany(q, rows);
  const fresh: StoredSms[] = [];
  for (const [i, p] of batch.entries()) {
    const key = rows[i]!.dedupeKey;
    const row = inserted.get(key);
    inserted.delete(key); // a second SMS with the same key in the batch is its duplicate
    ids.push(row?.id);
    if (row && !p.item.isReport) fresh.push(storedSms(p.item, p.receivedAt, row));
  }
  if (isolate) {
    for (const sms of fresh) if (await handOff(ctx, q, sms, consumers, true)) await markMatched(q, sms.id);
    return ids;
  }
  const taken = await handOffMany(ctx, q, fresh, consumers);
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

/** A newly stored SMS (not a receipt) goes to the consumers; marked matched if one took it. Its id. */
async function handOffStored(
  ctx: AppContext,
  q: Queryable,
  m: IncomingSms,
  receivedAt: Date,
  row: InsertedSms,
  consumers: readonly SmsConsumer[],
  isolate: boolean,
): Promise<string> {
  if (m.isReport) return row.id;
  const sms = storedSms(m, receivedAt, row);
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

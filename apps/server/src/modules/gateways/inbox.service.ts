import { createHash } from 'node:crypto';
import type { AppContext, SmsConsumer, StoredSms } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import type { IncomingSmsItem } from './driver/driver.ts';
import { insertIncomingSms, markMatched } from './inbox.queries.ts';

export interface IncomingSms extends IncomingSmsItem {
  gatewayId: string;
  /** Overrides the content key (the admin's simulated SMS are all distinct, even when identical). */
  dedupeKey?: string;
}

export interface IngestResult {
  /** Ids of the newly stored rows, in input order. */
  stored: string[];
  duplicates: number;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Same SMS, same key: gateway + port + device time + sender + text. A push and its duplicate, or a
 * push and the pull catch-up of the same inbox row, agree on all of them. The plain-text forward
 * carries no device time, so the receive minute stands in for it.
 */
export function dedupeKey(m: IncomingSms, receivedAt: Date): string {
  const when = m.ts !== null ? String(m.ts) : `m${Math.floor(receivedAt.getTime() / 60_000)}`;
  return sha256(JSON.stringify([m.gatewayId, m.port, when, m.sender, m.isReport ? 1 : 0, sha256(m.text)]));
}

/**
 * Stores incoming SMS exactly once and hands each new one (not receipts) to the consumers inside
 * the same transaction; consumers publish their own events (an order's code, a chat reply).
 */
export async function ingestIncomingSms(ctx: AppContext, items: IncomingSms[]): Promise<IngestResult> {
  const consumers = ctx.registry.smsConsumers;
  if (items.length === 0) return { stored: [], duplicates: 0 };
  const receivedAt = ctx.clock.now();
  const stored = await ctx.db.tx(async (q) => {
    const ids: string[] = [];
    for (const m of items) {
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
        dedupeKey: m.dedupeKey ?? dedupeKey(m, receivedAt),
      });
      if (!row) continue;
      ids.push(row.id);
      if (m.isReport) continue;
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
      };
      if (await handOff(ctx, q, sms, consumers)) await markMatched(q, row.id);
    }
    return ids;
  });
  return { stored, duplicates: items.length - stored.length };
}

/** The first consumer that takes the SMS wins; a failing one is isolated by a savepoint. */
async function handOff(
  ctx: AppContext,
  q: Queryable,
  sms: StoredSms,
  consumers: readonly SmsConsumer[],
): Promise<boolean> {
  for (const consume of consumers) {
    await q.query('SAVEPOINT sms_consumer');
    try {
      const taken = await consume(q, sms, ctx);
      await q.query('RELEASE SAVEPOINT sms_consumer');
      if (taken) return true;
    } catch (err) {
      await q.query('ROLLBACK TO SAVEPOINT sms_consumer');
      ctx.log.error({ err, smsId: sms.id, consumer: consume.name || 'anonymous' }, 'SMS consumer failed');
    }
  }
  return false;
}

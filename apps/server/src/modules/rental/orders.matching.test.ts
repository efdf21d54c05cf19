import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredSms } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { addService, seedGateway } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { matchRentalOrders } from './orders.service.ts';

// The matcher's batch form (used when SMS pushed together are stored in one transaction) must
// decide exactly as the single form does on each SMS in turn. Both run on the same orders inside a
// transaction that is rolled back, and the resulting orders, codes and answers are compared.

let s: TestServer;
/** The open orders' places: gateway, port, the SIM's number. */
let places: { id: string; gateway_id: string; port: string; phone_number: string; service_code: string }[];

beforeAll(async () => {
  s = await startTestServer();
  await seedGateway(s.db, { sims: 4, lastUpdate: new Date() });
  await addService(s.db, { code: 'mtg', name: 'Telegram', pattern: '(\\d{5})' });
  await addService(s.db, { code: 'mgo', name: 'Google', pattern: 'G-(\\d{6})', repeatable: true });
  const u = await s.createUser({ balance: 100 });
  for (const code of ['mtg', 'mtg', 'mgo', 'mgo']) {
    const r = await s.api(endpoints.order.create, { body: { serviceCode: code }, token: u.token });
    expect(r.status).toBe(200);
  }
  places = await s.db.query(
    `SELECT id::text AS id, gateway_id, port, phone_number, service_code FROM orders ORDER BY id`,
  );
});
afterAll(() => s?.close());

const TEXTS = [
  'Telegram code: 12345',
  'Telegram code: 67890',
  'Welcome to Telegram', // the service's text without a code: taken, no code
  'Your G-123456 is your Google code',
  'Google: G-654321',
  'Google says hello',
  'Hello from nobody',
];

/** A deterministic pseudo-random batch of SMS to the rented SIMs (and one to an unknown number). */
function batch(seed: number, size: number): Omit<StoredSms, 'id'>[] {
  let x = seed;
  const next = (n: number) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % n;
  };
  return Array.from({ length: size }, () => {
    const p = places[next(places.length)]!;
    const unknown = next(10) === 0;
    return {
      gatewayId: p.gateway_id,
      port: p.port,
      simId: null,
      simNumber: unknown ? null : p.phone_number,
      iccid: null,
      sender: 'Service',
      recipient: null,
      text: TEXTS[next(TEXTS.length)]!,
      deviceTs: null,
      receivedAt: new Date(),
    };
  });
}

/** Runs `match` on the batch in a transaction that is rolled back; what it answered and left. */
async function outcome(
  items: Omit<StoredSms, 'id'>[],
  match: (q: Queryable, list: StoredSms[]) => Promise<boolean[]>,
) {
  const rollback = new Error('rollback');
  let result: unknown;
  await s.ctx.db
    .tx(async (q) => {
      const list: StoredSms[] = [];
      for (const [i, m] of items.entries()) {
        const [row] = await q.query<{ id: string }>(
          `INSERT INTO incoming_sms (gateway_id, port, sender, body, received_at, dedupe_key)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
          [m.gatewayId, m.port, m.sender, m.text, m.receivedAt, `matching-test:${Math.random()}:${i}`],
        );
        list.push({ ...m, id: row!.id });
      }
      const answers = await match(q, list);
      const index = new Map(list.map((m, i) => [m.id, i]));
      const orders = await q.query(
        `SELECT id::text AS id, status, code_text, sms_text, finished_at IS NOT NULL AS finished FROM orders ORDER BY id`,
      );
      const codes = (
        await q.query<{ order_id: string; sms_id: string; code_text: string | null }>(
          `SELECT order_id::text AS order_id, sms_id, code_text FROM order_codes ORDER BY id`,
        )
      ).map((c) => ({ order: c.order_id, sms: index.get(c.sms_id), code: c.code_text }));
      result = { answers, orders, codes };
      throw rollback;
    })
    .catch((err) => {
      if (err !== rollback) throw err;
    });
  return result as { answers: boolean[]; orders: unknown[]; codes: unknown[] };
}

const one = async (q: Queryable, list: StoredSms[]) => {
  const answers: boolean[] = [];
  for (const sms of list) answers.push(await matchRentalOrders(q, sms, s.ctx));
  return answers;
};
const many = (q: Queryable, list: StoredSms[]) => matchRentalOrders.many!(q, list, s.ctx);

describe('matching SMS stored together', () => {
  it('takes the same SMS and records the same codes as matching them one by one', async () => {
    let recorded = 0;
    for (let seed = 1; seed <= 25; seed++) {
      const items = batch(seed, 2 + (seed % 9));
      const a = await outcome(items, one);
      const b = await outcome(items, many);
      expect(b, `seed ${seed}`).toEqual(a);
      recorded += a.codes.length;
    }
    // The batches did record codes (the comparison is not between two empty results).
    expect(recorded).toBeGreaterThan(20);
  });

  it('lets a non-repeating order take only the first code of a batch, and a repeating one every code', async () => {
    const tg = places.find((p) => p.service_code === 'mtg')!;
    const go = places.find((p) => p.service_code === 'mgo')!;
    const sms = (p: typeof tg, text: string): Omit<StoredSms, 'id'> => ({
      gatewayId: p.gateway_id,
      port: p.port,
      simNumber: p.phone_number,
      sender: 'Service',
      recipient: null,
      text,
      deviceTs: null,
      receivedAt: new Date(),
    });
    const items = [
      sms(tg, 'Welcome to Telegram'),
      sms(tg, 'Telegram code: 11111'),
      sms(tg, 'Telegram code: 22222'),
      sms(go, 'Google G-333333'),
      sms(go, 'Google G-444444'),
    ];
    const b = await outcome(items, many);
    expect(b.answers).toEqual([true, true, false, true, true]);
    expect(b.codes).toEqual([
      { order: tg.id, sms: 0, code: null },
      { order: tg.id, sms: 1, code: '11111' },
      { order: go.id, sms: 3, code: '333333' },
      { order: go.id, sms: 4, code: '444444' },
    ]);
    expect(b.orders).toContainEqual(
      expect.objectContaining({ id: go.id, status: 'SUCCESS', code_text: '444444' }),
    );
    expect(b.orders).toContainEqual(
      expect.objectContaining({ id: tg.id, status: 'SUCCESS', code_text: '11111' }),
    );
  });
});

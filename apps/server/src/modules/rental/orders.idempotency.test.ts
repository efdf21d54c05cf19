// biome-ignore-all lint/suspicious/noExplicitAny: test-side JSON reading
import { endpoints } from '@simdock/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addService, ledgerMismatches, seedGateway } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await seedGateway(s.db, { sims: 8, lastUpdate: s.clock.now() });
  await addService(s.db, { code: 'tg', name: 'Telegram', price: 1 });
  await addService(s.db, { code: 'wa', name: 'WhatsApp', price: 1 });
});
afterEach(async () => {
  expect(await ledgerMismatches(s.db)).toEqual([]);
});
afterAll(async () => {
  await s.close();
});

async function rent(token: string, serviceCode: string, key?: string) {
  const res = await fetch(`${s.url}/api/Order/create`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      ...(key !== undefined ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify({ serviceCode }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const orderCount = async (userId: string) =>
  (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE user_id = $1', [userId]))[0]!
    .n;

describe('Idempotency-Key on POST /api/Order/create', () => {
  it('answers a retry with the first order and charges once', async () => {
    const u = await s.createUser({ balance: 5 });
    const first = await rent(u.token, 'tg', 'click-1');
    const retry = await rent(u.token, 'tg', 'click-1');
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body.data.id).toBe(first.body.data.id);
    expect(await orderCount(u.id)).toBe(1);
    expect((await s.api(endpoints.user.info, { token: u.token })).body.balance).toBe(4);
  });

  it('rents once for parallel retries of one click', async () => {
    const u = await s.createUser({ balance: 5 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => rent(u.token, 'tg', 'burst-1')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(await orderCount(u.id)).toBe(1);
  });

  it('keeps keys per user, rents again without a key, and refuses a key reused for another service', async () => {
    const a = await s.createUser({ balance: 5 });
    const b = await s.createUser({ balance: 5 });
    const ofA = await rent(a.token, 'tg', 'same-key');
    const ofB = await rent(b.token, 'tg', 'same-key');
    expect(ofB.body.data.id).not.toBe(ofA.body.data.id);
    await rent(a.token, 'tg');
    await rent(a.token, 'tg');
    expect(await orderCount(a.id)).toBe(3);
    const reused = await rent(a.token, 'wa', 'same-key');
    expect(reused.status).toBe(409);
    expect(await orderCount(a.id)).toBe(3);
  });

  it('refuses a malformed key with a clear 400 and rents nothing', async () => {
    const u = await s.createUser({ balance: 5 });
    const res = await rent(u.token, 'tg', 'x'.repeat(200));
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/Idempotency-Key/);
    expect(await orderCount(u.id)).toBe(0);
  });
});

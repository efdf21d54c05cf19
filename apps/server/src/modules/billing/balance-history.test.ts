import { endpoints } from '@simdock/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerMismatches } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { charge, credit } from './index.ts';

// POST /api/user/balanceHistory: the caller's own ledger, newest first, with the balance after each
// entry, paged; on the real server and database.

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
});
afterEach(async () => {
  expect(await ledgerMismatches(s.db)).toEqual([]);
});
afterAll(async () => {
  await s.close();
});

const history = (token: string | undefined, body: Record<string, unknown> = {}) =>
  s.api(endpoints.account.balanceHistory, { body: body, token });

/** Moves the clock on so entries have distinct times (the page shows them). */
const later = () => s.clock.advance(60_000);

describe('balance history', () => {
  it('lists the top-up, the starting balance, charges and an admin adjustment, newest first with the balance after each', async () => {
    const u = await s.createUser({ balance: 10 });
    later();
    await s.db.tx((q) =>
      credit(q, { userId: u.id, amount: '5', kind: 'demo_credit', ref: null, at: s.clock.now() }),
    );
    later();
    await s.db.tx((q) => charge(q, { userId: u.id, amount: '0.50', ref: 'order:42', at: s.clock.now() }));
    later();
    await s.db.tx((q) =>
      charge(q, {
        userId: u.id,
        amount: '0.0225',
        ref: 'campaign:7',
        at: s.clock.now(),
        kind: 'message_charge',
      }),
    );
    later();
    // The administrator sets the balance to 20: the difference is booked as an adjustment.
    const saved = await s.api(endpoints.userAdmin.updateUser, {
      body: {
        user: {
          id: u.id,
          username: u.username,
          email: `${u.username}@example.com`,
          roles: ['User'],
          balance: 20,
        },
      },
      token: admin,
    });
    expect(saved.status).toBe(200);

    const res = await history(u.token);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(5);
    expect(
      res.body.items.map((e) => ({
        kind: e.kind,
        amount: e.amount,
        balanceAfter: e.balanceAfter,
        reference: e.reference,
      })),
    ).toEqual([
      { kind: 'admin_adjustment', amount: 5.5225, balanceAfter: 20, reference: null },
      {
        kind: 'message_charge',
        amount: -0.0225,
        balanceAfter: 14.4775,
        reference: { type: 'campaign', campaignId: '7', messages: null },
      },
      { kind: 'order_charge', amount: -0.5, balanceAfter: 14.5, reference: { type: 'order', orderId: '42' } },
      { kind: 'demo_credit', amount: 5, balanceAfter: 15, reference: null },
      { kind: 'topup', amount: 10, balanceAfter: 10, reference: null },
    ]);
    // Times are ISO and newest first, like the ids.
    const times = res.body.items.map((e) => Date.parse(e.createdAt));
    expect(times.every((t) => Number.isFinite(t))).toBe(true);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const ids = res.body.items.map((e) => BigInt(e.id));
    expect([...ids].sort((a, b) => (a < b ? 1 : -1))).toEqual(ids);
  });

  it("never shows another user's entries", async () => {
    const a = await s.createUser({ balance: 3 });
    const b = await s.createUser({ balance: 7 });
    await s.db.tx((q) => charge(q, { userId: b.id, amount: '1', ref: 'order:9', at: s.clock.now() }));
    const mine = await history(a.token);
    expect(mine.body.total).toBe(1);
    expect(mine.body.items.map((e) => [e.kind, e.amount, e.balanceAfter])).toEqual([['topup', 3, 3]]);
    // Asking with someone else's id in the body changes nothing: the session decides.
    const sneaky = await history(a.token, { userId: b.id, page: 1 });
    expect(sneaky.status).toBe(200);
    expect(sneaky.body).toEqual(mine.body);
    const theirs = await history(b.token);
    expect(theirs.body.items.map((e) => [e.kind, e.amount, e.balanceAfter])).toEqual([
      ['order_charge', -1, 6],
      ['topup', 7, 7],
    ]);
  });

  it('pages: each page continues the previous one, the total stays, past the end is empty', async () => {
    const u = await s.createUser();
    for (let i = 1; i <= 5; i++) {
      later();
      await s.db.tx((q) =>
        credit(q, {
          userId: u.id,
          amount: String(i),
          kind: 'topup',
          ref: `sandbox:p${i}`,
          at: s.clock.now(),
        }),
      );
    }
    const pages = await Promise.all([1, 2, 3, 4].map((page) => history(u.token, { page, pageSize: 2 })));
    expect(pages.map((p) => p.body.total)).toEqual([5, 5, 5, 5]);
    expect(pages.map((p) => p.body.items.map((e) => e.amount))).toEqual([[5, 4], [3, 2], [1], []]);
    expect(pages[0]!.body.items.map((e) => e.balanceAfter)).toEqual([15, 10]);
    // A payment provider's id is not for the page to show.
    expect(pages[0]!.body.items[0]!.reference).toBeNull();
  });

  it('answers a new user with nothing, refuses bad pages and callers without a session', async () => {
    const u = await s.createUser();
    expect((await history(u.token)).body).toEqual({ items: [], total: 0 });
    expect((await history(u.token, { pageSize: 101 })).status).toBe(400);
    expect((await history(u.token, { page: 0 })).status).toBe(400);
    expect((await history(undefined)).status).toBe(401);
  });
});

import { endpoints } from '@simdock/contract';
import { assertProperty } from '@simdock/contract/property-seeds';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { compactHourly, historySum } from './history.queries.ts';

// The history totals come from an hourly rollup kept by triggers (migration 009) plus exact counts
// at the range's edges. Checked against a plain count over the messages after every kind of change
// (sends, moves across hours, deliveries, failures, cancels, deletes, compaction), on random ranges.

let s: TestServer;
let users: { id: string; token: string }[];
let base: Date;

beforeAll(async () => {
  s = await startTestServer();
  const admin = await s.adminToken();
  await s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000 },
    token: admin,
  });
  users = [await s.createUser(), await s.createUser()];
  let n = 19005550000;
  for (const u of users) {
    const numbers = Array.from({ length: 120 }, () => String(++n));
    const res = await s.api(endpoints.outreach.sendMassSms, {
      body: { number: numbers.join('\n'), mess: 'Hi' },
      token: u.token,
    });
    expect(res.status).toBe(200);
  }
  // Spread the messages over ten hours, off the hour boundaries.
  base = new Date(Date.UTC(2026, 10, 20, 8, 0, 0));
  await s.db.query(
    `UPDATE messages SET created_at = $1::timestamptz + (id % 61) * interval '9 minutes 7 seconds'`,
    [base],
  );
});
afterAll(() => s.close());

async function exact(userId: string | null, from: Date | null, to: Date | null) {
  const rows = await s.db.query<{ num: number; success: number; replied: number }>(
    `SELECT count(*)::int AS num, count(*) FILTER (WHERE status = 'delivered')::int AS success,
            count(DISTINCT recipient) FILTER (WHERE replied_at IS NOT NULL)::int AS replied
       FROM messages WHERE status <> 'cancelled' AND ($1::uuid IS NULL OR user_id = $1)
        AND ($2::timestamptz IS NULL OR created_at >= $2) AND ($3::timestamptz IS NULL OR created_at < $3)`,
    [userId, from, to],
  );
  return rows[0]!;
}

const range = fc.record({
  who: fc.constantFrom(0, 1, null),
  from: fc.option(fc.integer({ min: -30, max: 600 }), { nil: null }),
  len: fc.option(fc.integer({ min: 0, max: 700 }), { nil: null }),
});

async function checkRanges(runs = 40) {
  await assertProperty(
    fc.asyncProperty(range, async ({ who, from, len }) => {
      const userId = who === null ? null : users[who]!.id;
      const f = from === null ? null : new Date(base.getTime() + from * 60_000);
      const t = len === null ? null : new Date((f ?? base).getTime() + len * 60_000);
      expect(await historySum(s.db, { userId, from: f, to: t })).toEqual(await exact(userId, f, t));
    }),
    { numRuns: runs },
  );
}

describe('history totals from the hourly rollup', () => {
  it('match an exact count after sends and moves across hours', async () => {
    await checkRanges();
  });

  it('match after deliveries, failures, replies, cancels and deletes, and after compaction', async () => {
    await s.db.query(`UPDATE messages SET status = 'delivered' WHERE id % 3 = 0`);
    await s.db.query(`UPDATE messages SET status = 'failed' WHERE id % 3 = 1 AND id % 2 = 0`);
    await s.db.query(`UPDATE messages SET status = 'cancelled' WHERE id % 11 = 0`);
    await s.db.query(`UPDATE messages SET replied_at = created_at + interval '5 minutes' WHERE id % 13 = 0`);
    // A delivered message changing its mind does not happen, but the rollup must follow any change.
    await s.db.query(`UPDATE messages SET status = 'failed' WHERE id % 17 = 0 AND status = 'delivered'`);
    await checkRanges();
    await s.db.query('DELETE FROM messages WHERE id % 19 = 0');
    await checkRanges(20);
    const before = (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM messaging_hourly'))[0]!.n;
    // Every hour up to a week ahead: the hour of the original send nets to zero and disappears.
    const folded = await compactHourly(s.db, new Date(s.clock.now().getTime() + 7 * 24 * 3_600_000));
    const after = (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM messaging_hourly'))[0]!.n;
    expect(folded).toBeGreaterThan(0);
    // At most one row per user and hour remains (10 hours hold messages).
    expect(after).toBeLessThanOrEqual(2 * 10);
    expect(after).toBeLessThan(before);
    await checkRanges();
  });
});

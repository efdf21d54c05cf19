import { endpoints } from '@simdock/contract';
import { assertProperty } from '@simdock/contract/property-seeds';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldAll } from '../../db/tallies.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { MESSAGING_TALLIES } from './history-stats.queries.ts';
import { addUp, planDays } from './history-stats.ts';

// History's chart (POST /api/MassOutreach/dailyStats) from the hourly rollups (migrations 009 and
// 030), for a user and for Admin9, checked against a plain count per day of the messages and
// replies: day starts on and off the hour (a zone with a half-hour offset), ranges that end inside
// an hour or a day, after deliveries, cancels, deletes and folds.

let s: TestServer;
let admin: string;
let users: { id: string; token: string }[];
let base: Date;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  await s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000 },
    token: admin,
  });
  users = [await s.createUser(), await s.createUser()];
  let n = 19005560000;
  for (const u of users) {
    const numbers = Array.from({ length: 150 }, () => String(++n));
    const res = await s.api(endpoints.outreach.sendMassSms, {
      body: { number: numbers.join('\n'), mess: 'Hi' },
      token: u.token,
    });
    expect(res.status).toBe(200);
  }
  // Spread over three days, off the hour boundaries; a reply to every fifth, minutes later.
  base = new Date(Date.UTC(2026, 10, 20, 0, 0, 0));
  await s.db.query(
    `UPDATE messages SET created_at = $1::timestamptz + (id % 97) * interval '43 minutes 7 seconds'`,
    [base],
  );
  await s.db.query(
    `INSERT INTO conversation_replies (conversation_id, user_id, sms_id, sender, body, received_at)
     SELECT conversation_id, user_id, gen_random_uuid(), recipient, 'ok', created_at + interval '17 minutes'
       FROM messages WHERE id % 5 = 0 AND conversation_id IS NOT NULL`,
  );
});
afterAll(() => s.close());

/** Sent (not cancelled), delivered and replies per day of [from, from + days), counted from the rows. */
async function exact(userId: string | null, from: number, to: number) {
  const days = Math.max(1, Math.ceil((to - from) / 86_400));
  const out = Array.from({ length: days }, (_, d) => ({
    dayStart: from + d * 86_400,
    sent: 0,
    delivered: 0,
    replies: 0,
  }));
  const msgs = await s.db.query<{ d: number; sent: number; delivered: number }>(
    `SELECT floor((extract(epoch FROM created_at) - $2) / 86400)::int AS d, count(*)::int AS sent,
            count(*) FILTER (WHERE status = 'delivered')::int AS delivered
       FROM messages WHERE status <> 'cancelled' AND ($1::uuid IS NULL OR user_id = $1)
        AND created_at >= to_timestamp($2) AND created_at < to_timestamp($3) GROUP BY 1`,
    [userId, from, to],
  );
  const replies = await s.db.query<{ d: number; replies: number }>(
    `SELECT floor((extract(epoch FROM received_at) - $2) / 86400)::int AS d, count(*)::int AS replies
       FROM conversation_replies WHERE ($1::uuid IS NULL OR user_id = $1)
        AND received_at >= to_timestamp($2) AND received_at < to_timestamp($3) GROUP BY 1`,
    [userId, from, to],
  );
  for (const m of msgs) Object.assign(out[m.d]!, { sent: m.sent, delivered: m.delivered });
  for (const r of replies) out[r.d]!.replies = r.replies;
  return out;
}

const range = fc.record({
  who: fc.constantFrom(0, 1, null),
  // Minutes from base: on the hour, on the half hour (India), on a quarter (Nepal), anywhere.
  start: fc.oneof(
    fc.integer({ min: -2, max: 60 }).map((h) => h * 60),
    fc.integer({ min: -2, max: 60 }).map((h) => h * 60 + 30),
    fc.integer({ min: -2, max: 60 }).map((h) => h * 60 + 45),
    fc.integer({ min: -120, max: 3600 }),
  ),
  // Whole days (as the screen asks), or a range that ends anywhere.
  length: fc.oneof(
    fc.integer({ min: 1, max: 4 }).map((d) => d * 86_400),
    fc.integer({ min: 1, max: 4 * 86_400 }),
  ),
});

async function check(runs = 30) {
  await assertProperty(
    fc.asyncProperty(range, async ({ who, start, length }) => {
      const strTime = Math.floor(base.getTime() / 1000) + start * 60;
      const endTime = strTime + length - 1;
      const token = who === null ? admin : users[who]!.token;
      const res = await s.api(endpoints.history.dailyStats, { body: { strTime, endTime }, token });
      expect(res.status).toBe(200);
      expect(res.body.data.days).toEqual(
        await exact(who === null ? null : users[who]!.id, strTime, endTime + 1),
      );
    }),
    { numRuns: runs },
  );
}

describe("History's chart from the hourly rollups", () => {
  it('matches a count per day of the messages and replies, whatever the day start', async () => {
    await check();
  });

  it('matches after deliveries, failures, cancels and deletes, folded or not', async () => {
    await s.db.query(`UPDATE messages SET status = 'delivered' WHERE id % 3 = 0`);
    await s.db.query(`UPDATE messages SET status = 'failed' WHERE id % 3 = 1 AND id % 2 = 0`);
    await s.db.query(`UPDATE messages SET status = 'cancelled' WHERE id % 11 = 0`);
    await check(15);
    await s.db.query('DELETE FROM messages WHERE id % 19 = 0');
    await s.db.query('DELETE FROM conversation_replies WHERE id % 7 = 0');
    await check(15);
    await foldAll(s.db, MESSAGING_TALLIES);
    const piled = await s.db.query('SELECT 1 FROM messaging_hourly_all GROUP BY hour HAVING count(*) > 1');
    expect(piled).toEqual([]);
    await check(20);
  });
});

describe('the day plan', () => {
  it('reads whole hours from the rollup and only the partial ones from the rows', () => {
    const from = new Date(Date.UTC(2026, 0, 1, 18, 30)); // midnight in a +05:30 zone
    const to = new Date(from.getTime() + 3 * 86_400_000);
    const plan = planDays(from, to);
    expect(plan.lo).toEqual(new Date(Date.UTC(2026, 0, 1, 19)));
    expect(plan.hi).toEqual(new Date(Date.UTC(2026, 0, 4, 18)));
    // The two edges and half an hour at each of the two day boundaries inside.
    const minutes = plan.exact.reduce((m, { a, b }) => m + (b.getTime() - a.getTime()) / 60_000, 0);
    expect(minutes).toBe(30 + 30 + 2 * 30);
    // Whole-hour zones read no rows at all for whole days.
    const utc = planDays(new Date(Date.UTC(2026, 0, 1)), new Date(Date.UTC(2026, 0, 31)));
    expect(utc.exact).toEqual([]);
  });

  it('gives a split hour its counted side and the rest of its rollup to the other day', () => {
    const from = new Date(Date.UTC(2026, 0, 1, 0, 15));
    const to = new Date(from.getTime() + 2 * 86_400_000);
    const plan = planDays(from, to);
    const boundaryHour = Date.UTC(2026, 0, 2, 0);
    const split = plan.splits.get(boundaryHour);
    // 00:00–00:15 is counted (day 0), 00:15–01:00 is the rest (day 1).
    expect(split).toEqual({ exactDay: 0, otherDay: 1 });
    const days = [[0], [0]];
    addUp(
      days,
      from,
      plan.splits,
      [{ hour: new Date(boundaryHour), values: [10] }],
      [{ d: 0, split: boundaryHour, values: [7] }],
    );
    expect(days).toEqual([[7], [3]]);
  });
});

import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { compactHourly, historySum } from './history.queries.ts';

// The hourly compaction folds only what the triggers appended since it last ran (rows not yet
// folded), so each run's work follows what changed, not the rollup's size; the totals stay exact.

let s: TestServer;
let user: { id: string; token: string };
const base = new Date(Date.UTC(2026, 10, 20, 8, 0, 0));
const HOUR = 3_600_000;

beforeAll(async () => {
  s = await startTestServer();
  const admin = await s.adminToken();
  await s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000 },
    token: admin,
  });
  user = await s.createUser();
  const numbers = Array.from({ length: 60 }, (_, i) => String(19005560000 + i));
  const res = await s.api(endpoints.outreach.sendMassSms, {
    body: { number: numbers.join('\n'), mess: 'Hi' },
    token: user.token,
  });
  expect(res.status).toBe(200);
  // Six hours, ten messages each.
  await s.db.query(
    `UPDATE messages SET created_at = $1::timestamptz + (id % 6) * interval '1 hour' + interval '5 minutes'`,
    [base],
  );
});
afterAll(() => s.close());

const rows = async () =>
  s.db.query<{ hour: Date; folded: boolean; n: number }>(
    `SELECT hour, folded, count(*)::int AS n FROM messaging_hourly WHERE user_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
    [user.id],
  );
const exact = async () =>
  (
    await s.db.query<{ num: number; success: number }>(
      `SELECT count(*)::int AS num, count(*) FILTER (WHERE status = 'delivered')::int AS success
         FROM messages WHERE user_id = $1 AND status <> 'cancelled'`,
      [user.id],
    )
  )[0]!;
// Past every hour written, including the send's own (its rows net to zero once the messages moved).
const later = () => new Date(Math.max(base.getTime(), s.clock.now().getTime()) + 48 * HOUR);

describe('hourly compaction', () => {
  it('folds every hour once, then only the hours that changed since, in bounded batches', async () => {
    // Each batch takes at most 2 (user, hour) pairs; the first runs drain the six hours (and the
    // send's hour, which folds to nothing).
    let total = 0;
    for (let n = await compactHourly(s.db, later(), 2); n > 0; n = await compactHourly(s.db, later(), 2)) {
      expect(n).toBeLessThanOrEqual(2);
      total += n;
    }
    expect(total).toBe(7);
    const folded = await rows();
    expect(folded).toHaveLength(6);
    expect(folded.every((r) => r.folded && r.n === 1)).toBe(true);
    expect(await compactHourly(s.db, later())).toBe(0);

    // Changes in two hours append rows there; the next run folds those two hours only.
    await s.db.query(
      `UPDATE messages SET status = 'delivered' WHERE user_id = $1 AND created_at < $2::timestamptz + interval '2 hours'`,
      [user.id, base],
    );
    const piled = (await rows()).filter((r) => !r.folded);
    expect(piled.map((r) => r.hour.getTime())).toEqual([base.getTime(), base.getTime() + HOUR]);
    expect(await compactHourly(s.db, later())).toBe(2);
    expect((await rows()).every((r) => r.folded && r.n === 1)).toBe(true);

    const sum = await historySum(s.db, { userId: user.id, from: null, to: null });
    expect({ num: sum.num, success: sum.success }).toEqual(await exact());
    expect(sum.success).toBe(20);
  });

  it('leaves the hour still filling (newer than the cutoff) unfolded', async () => {
    await s.db.query(`UPDATE messages SET status = 'cancelled' WHERE user_id = $1 AND id % 6 = 5`, [user.id]);
    const lastHour = new Date(base.getTime() + 5 * HOUR);
    expect(await compactHourly(s.db, lastHour)).toBe(0);
    expect((await rows()).filter((r) => !r.folded).map((r) => r.hour.getTime())).toEqual([
      lastHour.getTime(),
    ]);
    expect(await compactHourly(s.db, later())).toBe(1);
    const sum = await historySum(s.db, { userId: user.id, from: null, to: null });
    expect({ num: sum.num, success: sum.success }).toEqual(await exact());
  });
});

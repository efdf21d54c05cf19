import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seedGateway, smsToPort } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { gatewaysConfig, gatewaysModule, pruneGatewayData, sampleUptime, uptimeShare } from './index.ts';

// The module's own settings, as the composed schema validates them.
const ConfigSchema = z.object(gatewaysConfig.shape);

// Gateway data that grows with time stays bounded (docs/operations.md, "Data retention"): the
// uptime figures read hourly rows kept by the sampler plus the samples of a window's first
// partial hour, and equal the figure the samples give; old samples, hours and SMS no consumer
// took are deleted past their limits, and nothing younger.

let s: TestServer;
const HOUR = 3_600_000;

beforeAll(async () => {
  s = await startTestServer({
    env: {
      UPTIME_SAMPLES_RETENTION_HOURS: '25',
      UPTIME_HOURLY_RETENTION_DAYS: '3',
      INCOMING_SMS_RETENTION_DAYS: '7',
    },
  });
});
afterAll(async () => {
  await s.close();
});

/** The figure as it was read before the rollup: the average over every sample of the window. */
async function rawShare(since: Date): Promise<number | null> {
  const [row] = await s.db.query<{ share: string | null }>(
    `SELECT avg(CASE WHEN online THEN 1.0 ELSE 0.0 END)::text AS share FROM gateway_uptime WHERE minute >= $1`,
    [since],
  );
  return row!.share === null ? null : Number(row!.share);
}
const count = async (sql: string, params: unknown[] = []) =>
  (await s.db.query<{ n: number }>(sql, params))[0]!.n;

describe('gateway uptime', () => {
  it('equals the figure the samples give, for any window start, and a second sampler adds nothing', async () => {
    const user = await s.createUser();
    expect((await s.api(endpoints.order.stats, { token: user.token })).body.uptime).toBeNull();
    const gws = await Promise.all(
      [0, 1, 2].map(() => seedGateway(s.db, { sims: 1, lastUpdate: s.clock.now() })),
    );
    await s.db.query('UPDATE gateways SET is_enable = false WHERE id = $1', [gws[2]!.id]);
    // 30 hours sampled every 13 minutes, each gateway online or not by its own irregular rhythm.
    const start = Math.floor(s.clock.now().getTime() / HOUR) * HOUR + 13 * 60_000;
    for (let m = 0; m < 30 * 60; m += 13) {
      s.clock.set(start + m * 60_000);
      for (const [i, g] of gws.entries()) {
        const online = ((m / 13) * (i + 3)) % 11 < 7;
        await s.db.query('UPDATE gateways SET last_update = $2 WHERE id = $1', [
          g.id,
          new Date(s.clock.now().getTime() - (online ? 0 : 10 * 60_000)),
        ]);
      }
      if (m === 715) await s.db.query('UPDATE gateways SET is_enable = true WHERE id = $1', [gws[2]!.id]);
      expect(await sampleUptime(s.ctx)).toBeGreaterThan(0);
      expect(await sampleUptime(s.ctx)).toBe(0);
    }
    const rolled = await s.db.query<{ gateway_id: string; hour: Date; samples: number; online: number }>(
      'SELECT gateway_id, hour, samples, online FROM gateway_uptime_hourly ORDER BY 1, 2',
    );
    const fromSamples = await s.db.query(
      `SELECT gateway_id, date_trunc('hour', minute, 'UTC') AS hour, count(*)::int AS samples,
              (count(*) FILTER (WHERE online))::int AS online
         FROM gateway_uptime GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    expect(rolled).toEqual(fromSamples);

    // Sign-ins last 24 h of the test clock.
    user.token = await s.login(user.username, user.password);
    const now = s.clock.now().getTime();
    for (const back of [24 * HOUR, 24 * HOUR + 60_000, 5 * HOUR + 17 * 60_000, 3 * HOUR, 10 * 60_000]) {
      const since = new Date(now - back);
      const expected = await rawShare(since);
      expect(expected).not.toBeNull();
      expect(await uptimeShare(s.db, since)).toBeCloseTo(expected!, 12);
    }
    const expected = (await rawShare(new Date(now - 24 * HOUR)))!;
    const shown = (await s.api(endpoints.order.stats, { token: user.token })).body.uptime;
    expect(shown).toBe(Math.round(expected * 10000) / 100);
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(100);

    // The retention (25 h of samples) keeps every sample the 24-h figure reads: the same figure.
    const oldSamples = await count('SELECT count(*)::int AS n FROM gateway_uptime WHERE minute < $1', [
      new Date(now - 25 * HOUR),
    ]);
    const keptSamples = await count('SELECT count(*)::int AS n FROM gateway_uptime WHERE minute >= $1', [
      new Date(now - 25 * HOUR),
    ]);
    expect(oldSamples).toBeGreaterThan(0);
    const gone = await pruneGatewayData(s.ctx);
    expect(gone.samples).toBe(oldSamples);
    expect(await count('SELECT count(*)::int AS n FROM gateway_uptime')).toBe(keptSamples);
    expect((await s.api(endpoints.order.stats, { token: user.token })).body.uptime).toBe(shown);
    expect(await uptimeShare(s.db, new Date(now - 24 * HOUR))).toBeCloseTo(expected, 12);

    // Hourly rows go after UPTIME_HOURLY_RETENTION_DAYS (3): those of hours before the cutoff only.
    s.clock.set(start + 3 * 24 * HOUR + 5 * HOUR);
    const cutoff = new Date(s.clock.now().getTime() - 3 * 24 * HOUR);
    const oldHours = await count('SELECT count(*)::int AS n FROM gateway_uptime_hourly WHERE hour < $1', [
      cutoff,
    ]);
    const keptHours = await count('SELECT count(*)::int AS n FROM gateway_uptime_hourly WHERE hour >= $1', [
      cutoff,
    ]);
    expect(oldHours).toBeGreaterThan(0);
    expect(keptHours).toBeGreaterThan(0);
    expect((await pruneGatewayData(s.ctx)).hours).toBe(oldHours);
    expect(await count('SELECT count(*)::int AS n FROM gateway_uptime_hourly')).toBe(keptHours);
    expect(
      await count('SELECT count(*)::int AS n FROM gateway_uptime_hourly WHERE hour < $1', [cutoff]),
    ).toBe(0);
  }, 180_000);
});

describe('incoming SMS retention', () => {
  it('deletes SMS no consumer took once older than the limit; keeps matched and younger ones', async () => {
    const g = await seedGateway(s.db, { sims: 1, lastUpdate: s.clock.now() });
    const t0 = s.clock.now().getTime();
    const ids: Record<string, string> = {};
    for (const [name, ageDays, matched] of [
      ['oldUnmatched', 9, false],
      ['oldMatched', 9, true],
      ['edgeUnmatched', 6.99, false],
      ['newUnmatched', 1, false],
    ] as const) {
      s.clock.set(t0 - ageDays * 24 * HOUR);
      const { stored } = await smsToPort(s.ctx, g.id, g.ports[0]!, `hello ${name}`);
      ids[name] = stored[0]!;
      if (matched) await s.db.query('UPDATE incoming_sms SET matched = true WHERE id = $1', [stored[0]]);
    }
    s.clock.set(t0 - 8 * 24 * HOUR);
    const report = await smsToPort(s.ctx, g.id, g.ports[0]!, 'delivered');
    await s.db.query('UPDATE incoming_sms SET is_report = true WHERE id = $1', [report.stored[0]]);
    s.clock.set(t0);
    const before = await count('SELECT count(*)::int AS n FROM incoming_sms');
    expect((await pruneGatewayData(s.ctx)).sms).toBe(2);
    const left = await s.db.query<{ id: string }>('SELECT id FROM incoming_sms WHERE id = ANY($1::uuid[])', [
      [...Object.values(ids), report.stored[0]],
    ]);
    expect(left.map((r) => r.id).sort()).toEqual(
      [ids.oldMatched, ids.edgeUnmatched, ids.newUnmatched].sort(),
    );
    expect(await count('SELECT count(*)::int AS n FROM incoming_sms')).toBe(before - 2);
    expect((await pruneGatewayData(s.ctx)).sms).toBe(0);
  });
});

describe('retention settings', () => {
  it('0 keeps forever; a sample retention shorter than the 24-h figure needs is refused', () => {
    expect(ConfigSchema.parse({}).UPTIME_SAMPLES_RETENTION_HOURS).toBe(48);
    expect(ConfigSchema.parse({ UPTIME_SAMPLES_RETENTION_HOURS: '0' }).UPTIME_SAMPLES_RETENTION_HOURS).toBe(
      0,
    );
    expect(ConfigSchema.safeParse({ UPTIME_SAMPLES_RETENTION_HOURS: '24' }).success).toBe(false);
    expect(ConfigSchema.safeParse({ UPTIME_HOURLY_RETENTION_DAYS: '1' }).success).toBe(false);
    expect(ConfigSchema.safeParse({ INCOMING_SMS_RETENTION_DAYS: '-1' }).success).toBe(false);
  });

  it('the job is registered', () => {
    expect(gatewaysModule.jobs!.map((j) => j.name)).toContain('gateway-retention');
  });
});

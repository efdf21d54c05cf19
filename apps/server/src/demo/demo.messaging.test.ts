import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock.ts';
import { type RunningServer, startServer } from '../server.ts';
import { waitFor } from '../test/fixtures.ts';
import { openTestDb, type TestDb, testConfig } from '../test/harness.ts';
import {
  DEMO_CAMPAIGN,
  DEMO_FAILING_PORT,
  DEMO_OUTREACH_LIMITS,
  DEMO_USER,
  demoUnreachable,
} from './demo.ts';

// The demo's bulk SMS: workable limits, a first campaign the dispatcher sends through the simulated
// gateway (a few failures with the device's reason), and simulated recipients who answer, one STOP.

let testDb: TestDb;
let server: RunningServer;

/** A free port, so the device push URLs (PUBLIC_URL) are right before the server starts. */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

beforeAll(async () => {
  testDb = await openTestDb();
  const port = await freePort();
  server = await startServer({
    // A faster SIM rate than the default, so the campaign finishes within the test.
    config: testConfig({
      DEMO: 'true',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DEMO_GATEWAY_PORT: '0',
      SMS_PER_SIM_PER_MINUTE: '600',
      SMS_DISPATCH_INTERVAL_MS: '200',
    }),
    db: testDb.db,
    clock: systemClock,
    workers: true,
    logStream: { write: (l) => void (process.env.DEMO_DEBUG && process.stdout.write(l)) },
  });
});
afterAll(async () => {
  await server.stop();
  await testDb.drop();
});

describe('demo bulk SMS', () => {
  it('sends the first campaign, fails a few with a reason, and gets replies including one STOP', async () => {
    const [settings] = await testDb.db.query<{ max_batch_send_sms: number; max_msg_per_day: number }>(
      'SELECT max_batch_send_sms, max_msg_per_day FROM messaging_settings',
    );
    expect(settings).toEqual({
      max_batch_send_sms: DEMO_OUTREACH_LIMITS.maxBatchSendSms,
      max_msg_per_day: DEMO_OUTREACH_LIMITS.maxMsgPerDay,
    });
    const counts = () =>
      testDb.db.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM messages GROUP BY status ORDER BY status',
      );
    await waitFor(async () => {
      const c = await counts();
      return c.every((r) => r.status === 'delivered' || r.status === 'failed');
    }, 20_000);
    const byStatus = Object.fromEntries((await counts()).map((r) => [r.status, r.n]));
    expect((byStatus.delivered ?? 0) + (byStatus.failed ?? 0)).toBe(DEMO_CAMPAIGN.recipients.length);
    // Exactly the unreachable recipients fail, whichever device tried them last (the gateway, the
    // phone and the GoIP box share one carrier), each with that device's reason; every other one
    // arrives.
    const failed = await testDb.db.query<{ recipient: string; status_reason: string }>(
      `SELECT recipient, status_reason FROM messages WHERE status = 'failed' ORDER BY recipient`,
    );
    const unreachable = DEMO_CAMPAIGN.recipients.filter(demoUnreachable);
    expect(unreachable.length).toBeGreaterThan(0);
    expect(failed.map((f) => f.recipient.replace(/\D/g, ''))).toEqual([...unreachable].sort());
    for (const f of failed)
      expect(f.status_reason).toMatch(/Timeout|RESULT_ERROR_GENERIC_FAILURE|errorstatus/);
    const retried = await testDb.db.query(
      `SELECT 1 FROM messages WHERE status = 'delivered' AND attempt > 0`,
    );
    expect(retried.length).toBeGreaterThan(0);
    // The SIM the network refuses failed every send it tried, and locked itself if that was
    // SimLockAfterFailures (5) in a row: the campaign gives each of the demo's 22 SIMs about that
    // many, so whether it got there depends on the dispatch order. Nothing went out through it.
    const [refused] = await testDb.db.query<{ lock_kind: string | null; consecutive_failures: number }>(
      `SELECT h.lock_kind, h.consecutive_failures FROM sim_health h JOIN sims s ON s.id = h.sim_id
        WHERE s.port = $1`,
      [DEMO_FAILING_PORT],
    );
    expect(refused!.consecutive_failures).toBeGreaterThanOrEqual(1);
    if (refused!.consecutive_failures >= 5) expect(refused).toMatchObject({ lock_kind: 'auto' });
    const viaRefused = await testDb.db.query(
      `SELECT 1 FROM messages WHERE status = 'delivered' AND port = $1`,
      [DEMO_FAILING_PORT],
    );
    expect(viaRefused).toHaveLength(0);
    // Simulated recipients answer a few seconds later; the third says STOP.
    const optOuts = await waitFor(async () => {
      const rows = await testDb.db.query<{ number: string }>(
        `SELECT o.number FROM opt_outs o JOIN users u ON u.id = o.user_id WHERE u.username = $1`,
        [DEMO_USER.username],
      );
      return rows.length > 0 && rows;
    }, 20_000);
    expect(optOuts).toHaveLength(1);
    // The answers are timed separately: under load the STOP may be stored before another answer.
    const replies = await waitFor(async () => {
      const rows = await testDb.db.query('SELECT 1 FROM conversation_replies');
      return rows.length >= 3 && rows;
    }, 20_000);
    expect(replies.length).toBeGreaterThanOrEqual(3);
  }, 60_000);
});

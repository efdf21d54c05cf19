import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { endpoints } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSimGateway } from './test/fixtures.ts';
import { startTestServer, type TestServer } from './test/harness.ts';

// The README's "Send from a script" block is run as written (with bash, curl and jq) against a
// server whose jobs send through a simulated gateway: what a newcomer copies works.

const run = promisify(execFile);
const README = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');

/** The shell block after the marker comment `<!-- <name>: … -->`. */
function block(name: string): string {
  const at = README.indexOf(`<!-- ${name}:`);
  if (at < 0) throw new Error(`README has no block ${name}`);
  const m = /```sh\n([\s\S]*?)```/.exec(README.slice(at));
  if (!m) throw new Error(`README block ${name} has no sh fence`);
  return m[1]!;
}

let s: TestServer;
let sim: GatewaySim;

beforeAll(async () => {
  s = await startTestServer({ workers: true, env: { SMS_PER_SIM_PER_MINUTE: '600' } });
  const admin = await s.adminToken();
  await s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 10, MaxMsgPerDay: 100, SmsPricePerSegment: 0.01 },
    token: admin,
  });
  sim = await GatewaySim.start({ ports: 2, sendDelayMs: 5 });
  await addSimGateway(s, admin, sim, 'readme box');
});
afterAll(async () => {
  await sim.stop();
  await s.close();
});

describe('README: Send from a script', () => {
  it('sends, waits for the result and lists replies, as written', async () => {
    const u = await s.createUser({ balance: 1 });
    const key: string = (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) }))
      .body.apiKey;
    const script = block('send-from-a-script');
    const first = script.split('\n')[0]!;
    expect(first).toMatch(/^KEY=sd_…; HOST=\S+; TO=\d+$/);
    const ready = script.replace(first, `KEY=${key}; HOST=${s.url}; TO=13035558800`);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', ready], { timeout: 60_000 });
    expect(stdout.split('\n')).toEqual(['charged 0.01', 'delivered', '']);
    const [m] = await s.db.query<{ status: string }>(
      "SELECT status FROM messages WHERE user_id = $1 AND body = 'Hello from a script'",
      [u.id],
    );
    expect(m?.status).toBe('delivered');
  });
});

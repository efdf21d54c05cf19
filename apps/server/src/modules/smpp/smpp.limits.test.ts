import { endpoints } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import type { Session } from 'smpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSimGateway, ledgerMismatches, userWithApiKey } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { ask, smppClient, smppUser as smppUserOf } from '../../test/smpp.ts';

// An admin's SMPP limits for a user (the rate of each credential, its bind limit), picked up by new
// binds at once and by bound sessions at their next minute's check; and what SMPP access audits:
// a password made, a refused bind (once a minute per credential and reason).

let s: TestServer;
let sim: GatewaySim;
let admin: string;
const sessions: Session[] = [];

beforeAll(async () => {
  s = await startTestServer({ env: { SMS_PER_SIM_PER_MINUTE: '600' } });
  admin = await s.adminToken();
  await s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 20, MaxMsgPerDay: 1000, SmsPricePerSegment: 0.01, MmsPrice: 0.05 },
    token: admin,
  });
  sim = await GatewaySim.start({ ports: 2, sendDelayMs: 5 });
  await addSimGateway(s, admin, sim, 'smpp limits box');
});
afterAll(async () => {
  for (const c of sessions) c.destroy();
  await sim.stop();
  expect(await ledgerMismatches(s.db)).toEqual([]);
  await s.close();
});

const smppUser = () => smppUserOf(s);
const client = () => smppClient(s, sessions);

const bind = async (u: { systemId: string; smppPassword: string }, password = u.smppPassword) =>
  ask(await client(), 'bind_transceiver', { system_id: u.systemId, password });

let numberSeq = 14255550000;
const nextNumber = () => String(++numberSeq);

/** A burst of submits at one instant (the test clock stands still): their statuses. */
async function burst(c: Session, n: number): Promise<number[]> {
  const answers = await Promise.all(
    Array.from({ length: n }, () =>
      ask(c, 'submit_sm', { destination_addr: nextNumber(), short_message: 'burst' }),
    ),
  );
  return answers.map((a) => a.command_status);
}

const setLimits = (userId: string, ratePerSecond: unknown, bindLimit: unknown, token = admin) =>
  s.api(endpoints.smpp.setLimits, {
    body: { userId, ratePerSecond, bindLimit } as never,
    token,
  });

const auditRows = (kind: string, targetId: string) =>
  s.db.query<{
    actor_id: string | null;
    actor_name: string;
    target_label: string;
    before: unknown;
    after: unknown;
  }>(
    'SELECT actor_id::text AS actor_id, actor_name, target_label, before, after FROM audit_log WHERE kind = $1 AND target_id = $2 ORDER BY id',
    [kind, targetId],
  );

describe('an admin’s SMPP limits', () => {
  it('answer the defaults, then the set values (audited); a rate of 5/s throttles a burst of 20 beyond 5', async () => {
    const u = await smppUser();
    const read = await s.api(endpoints.smpp.limits, { body: { userId: u.id }, token: admin });
    expect(read.body).toMatchObject({ ratePerSecond: 30, bindLimit: 2, custom: false });

    const set = await setLimits(u.id, 5, 1);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ userId: u.id, ratePerSecond: 5, bindLimit: 1, custom: true });
    const again = await s.api(endpoints.smpp.limits, { body: { userId: u.id }, token: admin });
    expect(again.body).toMatchObject({ ratePerSecond: 5, bindLimit: 1, custom: true });
    const audit = await auditRows('smpp.limits', u.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      target_label: u.username,
      before: { ratePerSecond: 30, bindLimit: 2 },
      after: { ratePerSecond: 5, bindLimit: 1 },
    });

    const first = await bind(u);
    expect(first.command_status).toBe(0);
    const c = sessions.at(-1)!;
    const statuses = await burst(c, 20);
    expect(statuses.filter((x) => x === 0)).toHaveLength(5);
    expect(statuses.filter((x) => x === 0x58)).toHaveLength(15);

    // Bind limit 1: a second bind of the credential is refused, and audited once for several tries.
    for (let i = 0; i < 3; i++) expect((await bind(u)).command_status).toBe(0x0d);
    const refused = await auditRows('smpp.bindRefused', u.keyId);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      actor_id: u.id,
      target_label: u.systemId,
      after: { reason: 'bind limit reached', ip: expect.stringContaining('127.0.0.1') },
    });
  });

  it('reach a bound session within a minute', async () => {
    const u = await smppUser();
    expect((await bind(u)).command_status).toBe(0);
    const c = sessions.at(-1)!;
    expect((await setLimits(u.id, 5, 2)).status).toBe(200);
    // The session checks its key and limits again a minute on: the submit that finds it due still
    // counts against the old rate, the next ones against the new.
    s.clock.advance(61_000);
    expect(
      (await ask(c, 'submit_sm', { destination_addr: nextNumber(), short_message: 'x' })).command_status,
    ).toBe(0);
    const statuses = await burst(c, 20);
    expect(statuses.filter((x) => x === 0)).toHaveLength(5);
    expect(statuses.filter((x) => x === 0x58)).toHaveLength(15);
  });

  it('refuses bad values (400), non-admins (403) and unknown users (404)', async () => {
    const u = await smppUser();
    for (const [rate, binds, message] of [
      [0, 1, 'Rate must be'],
      [1001, 1, 'Rate must be'],
      [2.5, 1, 'Rate must be'],
      ['5', 1, 'Rate must be'],
      [5, 0, 'Bind limit must be'],
      [5, 11, 'Bind limit must be'],
    ] as const) {
      const r = await setLimits(u.id, rate, binds);
      expect(r.status, `${rate} ${binds}`).toBe(400);
      expect(r.body.msg).toContain(message);
    }
    const user = await setLimits(u.id, 5, 1, u.token);
    expect(user.status).toBe(403);
    const userRead = await s.api(endpoints.smpp.limits, { body: { userId: u.id }, token: u.token });
    expect(userRead.status).toBe(403);
    for (const userId of ['00000000-0000-4000-8000-000000000000', 'nobody']) {
      const r = await setLimits(userId, 5, 1);
      expect([r.status, r.body.error]).toEqual([404, 'user_not_found']);
      const read = await s.api(endpoints.smpp.limits, { body: { userId }, token: admin });
      expect(read.status).toBe(404);
    }
    expect(await auditRows('smpp.limits', u.id)).toHaveLength(0);
  });
});

describe('SMPP access in the audit log', () => {
  it('records a password made and reset (the owner, the key; never the password) and wrong passwords once a minute', async () => {
    const u = await smppUser();
    const reset = await s.api(endpoints.smpp.password, {
      body: { id: u.keyId },
      token: u.token,
      headers: await s.reauth(u),
    });
    expect(reset.status).toBe(200);
    const made = await auditRows('apikey.smppPassword', u.keyId);
    expect(made).toHaveLength(2);
    expect(made[1]).toMatchObject({
      actor_id: u.id,
      actor_name: u.username,
      after: { systemId: u.systemId },
    });
    expect(JSON.stringify(made)).not.toContain(reset.body.password);

    for (let i = 0; i < 3; i++) expect((await bind(u, 'wrong123')).command_status).toBe(0x0e);
    const refused = await auditRows('smpp.bindRefused', u.keyId);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.after).toMatchObject({ reason: 'wrong password' });
    // A minute later the same refusal is audited again; the successful bind only logged.
    s.clock.advance(61_000);
    expect((await bind(u, 'wrong123')).command_status).toBe(0x0e);
    expect(await auditRows('smpp.bindRefused', u.keyId)).toHaveLength(2);
    expect((await bind(u, reset.body.password)).command_status).toBe(0);
    expect(await auditRows('smpp.bindRefused', u.keyId)).toHaveLength(2);
  });

  it('records a bind from outside the key’s allowed addresses', async () => {
    const u = await userWithApiKey(s, 1);
    const key = await s.api(endpoints.apikey.createKey, {
      body: { name: 'office', scopes: ['messaging:send'], allowedIps: ['10.20.30.0/24'] },
      token: u.token,
      headers: await s.reauth(u),
    });
    const made = await s.api(endpoints.smpp.password, {
      body: { id: key.body.key.id },
      token: u.token,
      headers: await s.reauth(u),
    });
    const r = await bind({ systemId: made.body.systemId, smppPassword: made.body.password });
    expect(r.command_status).toBe(0x0d);
    const refused = await auditRows('smpp.bindRefused', key.body.key.id);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.after).toMatchObject({ reason: 'address not allowed' });
  });
});

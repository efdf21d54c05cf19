import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpoints } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import { connect, type Pdu, type Session } from 'smpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSimGateway, ledgerMismatches, userWithApiKey } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { ask, smppClient, smppUser as smppUserOf } from '../../test/smpp.ts';
import { dispatchUntil } from '../../test/suites.ts';
import { smppPorts } from './index.ts';
import { CMD, cstring, writePdu } from './pdu.ts';
import { smppState } from './ports.ts';

// The SMPP server driven by an independent client (the npm package `smpp`): binds with good and
// bad credentials, the key's allowed addresses and the bind limit; submits that reach a simulated
// gateway and are charged like REST sends (GSM 7-bit, UCS-2 in UDH parts and in message_payload);
// the rate above the account's limit; generic_nack, enquire_link and a malformed PDU.

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
  await addSimGateway(s, admin, sim, 'smpp box');
});
afterAll(async () => {
  for (const c of sessions) c.destroy();
  await sim.stop();
  expect(await ledgerMismatches(s.db)).toEqual([]);
  await s.close();
});

type User = Awaited<ReturnType<typeof userWithApiKey>>;

const smppUser = (balance = 5) => smppUserOf(s, balance);
const client = () => smppClient(s, sessions);

async function bound(u: { systemId: string; smppPassword: string }): Promise<Session> {
  const c = await client();
  const r = await ask(c, 'bind_transceiver', { system_id: u.systemId, password: u.smppPassword });
  expect(r.command_status).toBe(0);
  return c;
}

const ucs2 = (text: string) => Buffer.from(text, 'utf16le').swap16();
const udh = (ref: number, total: number, seq: number) => Buffer.from([5, 0, 3, ref, total, seq]);

async function apiMessage(key: string, id: string) {
  const res = await fetch(`${s.url}/api/v1/messages/${id}`, { headers: { authorization: `Bearer ${key}` } });
  return (await res.json()).message as { text: string; segments: number; cost: string; status: string };
}
const balanceOf = async (u: User) =>
  (await s.api(endpoints.user.info, { token: u.token })).body.balance as number;

let numberSeq = 14155550000;
const nextNumber = () => String(++numberSeq);

describe('SMPP credentials', () => {
  it('are made for a key with messaging:send, shown once, after re-authentication', async () => {
    const u = await smppUser();
    expect(u.systemId).toMatch(/^sd[0-9a-f]{10}$/);
    expect(u.smppPassword).toMatch(/^[A-Za-z0-9]{8}$/);
    const keys = await s.api(endpoints.apikey.keys, { token: u.token });
    const id = keys.body.keys[0]!.id;
    const unguarded = await s.api(endpoints.smpp.password, { body: { id }, token: u.token });
    expect([unguarded.status, unguarded.body.error]).toEqual([403, 'reauth_required']);
    // A new password keeps the system_id and replaces the old password.
    const again = await s.api(endpoints.smpp.password, {
      body: { id },
      token: u.token,
      headers: await s.reauth(u),
    });
    expect(again.body.systemId).toBe(u.systemId);
    expect(again.body.port).toBe(smppPorts(s.ctx).plain);
    expect(again.body.tlsPort).toBeNull();
    const old = await client();
    expect(
      (await ask(old, 'bind_transceiver', { system_id: u.systemId, password: u.smppPassword }))
        .command_status,
    ).toBe(0x0e);
    await bound({ systemId: u.systemId, smppPassword: again.body.password });

    // A key without the scope, and another user's key.
    const readOnly = await s.api(endpoints.apikey.createKey, {
      body: { name: 'reader', scopes: ['messaging:read'] },
      token: u.token,
      headers: await s.reauth(u),
    });
    const refused = await s.api(endpoints.smpp.password, {
      body: { id: readOnly.body.key.id },
      token: u.token,
      headers: await s.reauth(u),
    });
    expect(refused.body.error).toBe('api_key_scope_missing');
    const other = await userWithApiKey(s, 0);
    const notMine = await s.api(endpoints.smpp.password, {
      body: { id },
      token: other.token,
      headers: await s.reauth(other),
    });
    expect(notMine.status).toBe(404);
  });
});

describe('SMPP binds', () => {
  it('refuses a wrong password and an unknown system_id alike, a second bind on a session, and binds above the limit', async () => {
    const u = await smppUser();
    const c = await client();
    expect(
      (await ask(c, 'bind_transceiver', { system_id: u.systemId, password: 'wrong123' })).command_status,
    ).toBe(0x0e);
    expect(
      (await ask(c, 'bind_transceiver', { system_id: 'nobody', password: u.smppPassword })).command_status,
    ).toBe(0x0e);
    const ok = await ask(c, 'bind_transceiver', { system_id: u.systemId, password: u.smppPassword });
    expect(ok.command_status).toBe(0);
    expect(ok.system_id).toBe('SimDock');
    expect(
      (await ask(c, 'bind_transceiver', { system_id: u.systemId, password: u.smppPassword })).command_status,
    ).toBe(0x05);
    await bound(u);
    // The bind limit (2 by default) counts this process's sessions.
    const third = await client();
    expect(
      (await ask(third, 'bind_transceiver', { system_id: u.systemId, password: u.smppPassword }))
        .command_status,
    ).toBe(0x0d);
    expect(s.logs.some((l) => l.includes('bind limit 2 reached'))).toBe(true);
    // The password never reaches the log.
    expect(s.logs.some((l) => l.includes(u.smppPassword))).toBe(false);
    // The third refused bind on one connection closes it.
    const guesser = await client();
    const closed = new Promise<void>((resolve) => guesser.once('close', resolve));
    for (const password of ['guess001', 'guess002', 'guess003']) {
      expect(
        (await ask(guesser, 'bind_transceiver', { system_id: u.systemId, password })).command_status,
      ).toBe(0x0e);
    }
    await closed;
  });

  it('refuses a bind from outside the key’s allowed addresses', async () => {
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
    const c = await client();
    const r = await ask(c, 'bind_transceiver', {
      system_id: made.body.systemId,
      password: made.body.password,
    });
    expect(r.command_status).toBe(0x0d);
    expect(s.logs.some((l) => l.includes('not among the key') && l.includes(made.body.systemId))).toBe(true);
  });
});

describe('SMPP session commands', () => {
  it('answers enquire_link, generic_nack for an unknown command, and closes only a session that sent a malformed PDU', async () => {
    const u = await smppUser();
    const c = await bound(u);
    expect((await ask(c, 'enquire_link')).command_status).toBe(0);
    const nack = new Promise<Pdu>((resolve) => c.once('generic_nack', resolve));
    c.socket.write(writePdu(0x00000099, 0, 4242));
    expect(await nack).toMatchObject({ command_status: 0x03, sequence_number: 4242 });
    // A submit before a bind is refused.
    const fresh = await client();
    expect(
      (await ask(fresh, 'submit_sm', { destination_addr: nextNumber(), short_message: 'x' })).command_status,
    ).toBe(0x04);
    const closed = new Promise<void>((resolve) => fresh.once('close', resolve));
    const bad = Buffer.alloc(16);
    bad.writeUInt32BE(8, 0);
    fresh.socket.write(bad);
    await closed;
    expect((await ask(c, 'enquire_link')).command_status).toBe(0);
    // unbind: answered, then closed.
    const gone = new Promise<void>((resolve) => c.once('close', resolve));
    const resp = await new Promise<Pdu>((resolve) => c.unbind({}, resolve));
    expect(resp.command).toBe('unbind_resp');
    await gone;
  });
});

describe('SMPP link checks', () => {
  it('ends a bound session whose key was deleted, at its next submit a minute later', async () => {
    const u = await smppUser();
    const c = await bound(u);
    const keys = await s.api(endpoints.apikey.keys, { token: u.token });
    await s.api(endpoints.apikey.deleteKey, { body: { id: keys.body.keys[0]!.id }, token: u.token });
    s.clock.advance(61_000);
    const closed = new Promise<void>((resolve) => c.once('close', resolve));
    const r = await ask(c, 'submit_sm', { destination_addr: nextNumber(), short_message: 'after delete' });
    expect(r.command_status).toBe(0x45);
    await closed;
    expect(await balanceOf(u)).toBe(5);
    // Its credential went with the key.
    const again = await client();
    expect(
      (await ask(again, 'bind_transceiver', { system_id: u.systemId, password: u.smppPassword }))
        .command_status,
    ).toBe(0x0e);
  });

  it('asks a quiet bound client enquire_link, and unbinds and closes one that stays silent', async () => {
    const state = smppState(s.ctx);
    const before = state.timing;
    state.timing = { ...before, enquireAfterMs: 150, idleCloseMs: 600, tickMs: 25 };
    try {
      const u = await smppUser();
      const c = await bound(u);
      // Answered enquire_links keep the link alive past the idle time.
      let asked = 0;
      c.on('enquire_link', (pdu: Pdu) => {
        asked++;
        if (asked <= 3) c.send(pdu.response());
      });
      const unbind = new Promise<Pdu>((resolve) => c.once('unbind', resolve));
      const closed = new Promise<void>((resolve) => c.once('close', resolve));
      const started = Date.now();
      await unbind;
      await closed;
      // Three answered asks (150 ms apart at least) kept it open longer than the idle time alone.
      expect(asked).toBeGreaterThanOrEqual(2);
      expect(Date.now() - started).toBeGreaterThan(900);
      expect(s.logs.some((l) => l.includes('smpp session idle: closed') && l.includes(u.systemId))).toBe(
        true,
      );
    } finally {
      state.timing = before;
    }
  });
});

describe('SMPP submit_sm', () => {
  it('sends GSM 7-bit text through messaging: charged like REST, delivered by the gateway, under the answered id', async () => {
    const u = await smppUser();
    const c = await bound(u);
    const to = nextNumber();
    const r = await ask(c, 'submit_sm', {
      destination_addr: `+${to}`,
      data_coding: 0,
      short_message: 'Hello SMPP {€}',
    });
    expect(r.command_status).toBe(0);
    expect(r.message_id).toMatch(/^o\d+$/);
    expect(await balanceOf(u)).toBeCloseTo(4.99, 6);
    await dispatchUntil(
      { s, sim },
      async () => (await apiMessage(u.key, r.message_id!)).status === 'delivered',
      40,
    );
    expect(sim.sentTasks().some((t) => t.sms === 'Hello SMPP {€}' && t.to.includes(to))).toBe(true);
    const m = await apiMessage(u.key, r.message_id!);
    expect(m).toMatchObject({ text: 'Hello SMPP {€}', segments: 1, cost: '0.01' });
    // The History page lists it like any other message.
    const history = await s.api(endpoints.history.queryMsg, {
      body: { current: 1, size: 10, params: {} },
      token: u.token,
    });
    expect(history.status).toBe(200);
    const records = history.body.data.records as { sms: string; receiver: string }[];
    expect(records.some((x) => x.sms === 'Hello SMPP {€}' && x.receiver.includes(to))).toBe(true);
  });

  it('joins a 3-part UCS-2 message sent as UDH parts, and takes one in message_payload, each charged as 3 segments', async () => {
    const u = await smppUser();
    const c = await bound(u);
    const text = 'Привет, это длинное сообщение по SMPP. '.repeat(4).slice(0, 150);
    const parts = [text.slice(0, 67), text.slice(67, 134), text.slice(134)];
    const to = nextNumber();
    const answers: Pdu[] = [];
    for (const [i, p] of parts.entries()) {
      answers.push(
        await ask(c, 'submit_sm', {
          destination_addr: to,
          esm_class: 0x40,
          data_coding: 8,
          short_message: Buffer.concat([udh(0x3c, 3, i + 1), ucs2(p)]),
        }),
      );
    }
    expect(answers.map((a) => a.command_status)).toEqual([0, 0, 0]);
    const id = answers[2]!.message_id!;
    expect(id).toMatch(/^o\d+$/);
    expect(await apiMessage(u.key, id)).toMatchObject({ text, segments: 3, cost: '0.03' });
    expect(await balanceOf(u)).toBeCloseTo(4.97, 6);

    const payload = await ask(c, 'submit_sm', {
      destination_addr: nextNumber(),
      data_coding: 8,
      message_payload: ucs2(text),
    });
    expect(payload.command_status).toBe(0);
    expect(await apiMessage(u.key, payload.message_id!)).toMatchObject({ text, segments: 3, cost: '0.03' });
    expect(await balanceOf(u)).toBeCloseTo(4.94, 6);
  });

  it('maps refusals: a bad destination, no balance, an unknown data_coding', async () => {
    const u = await smppUser(0);
    const c = await bound(u);
    expect((await ask(c, 'submit_sm', { destination_addr: 'abc', short_message: 'x' })).command_status).toBe(
      0x0b,
    );
    expect((await ask(c, 'submit_sm', { destination_addr: '123', short_message: 'x' })).command_status).toBe(
      0x0b,
    );
    expect(
      (await ask(c, 'submit_sm', { destination_addr: nextNumber(), short_message: 'no money' }))
        .command_status,
    ).toBe(0x45);
    expect(s.logs.some((l) => l.includes('smpp submit refused') && l.includes('top up'))).toBe(true);
    expect(
      (
        await ask(c, 'submit_sm', {
          destination_addr: nextNumber(),
          data_coding: 4,
          short_message: Buffer.from([1]),
        })
      ).command_status,
    ).toBe(0x45);
  });

  it('answers ESME_RMSGQFUL beyond the bind’s window of outstanding submits', async () => {
    const state = smppState(s.ctx);
    const before = state.timing;
    try {
      const u = await smppUser();
      state.timing = { ...before, window: 2 };
      const c = await bound(u);
      // Five submit_sm in one write: they arrive together, before any send has finished.
      const submit = (seq: number) =>
        writePdu(
          CMD.submit_sm,
          0,
          seq,
          Buffer.concat([
            cstring(''),
            Buffer.from([1, 1]),
            cstring(''),
            Buffer.from([1, 1]),
            cstring(nextNumber()),
            Buffer.from([0, 0, 0]),
            cstring(''),
            cstring(''),
            Buffer.from([0, 0, 0, 0, 6]),
            Buffer.from(`window`),
          ]),
        );
      const answers: Pdu[] = [];
      const all = new Promise<void>((resolve) =>
        c.on('submit_sm_resp', (pdu: Pdu) => {
          answers.push(pdu);
          if (answers.length === 5) resolve();
        }),
      );
      c.socket.write(Buffer.concat([1, 2, 3, 4, 5].map((n) => submit(9000 + n))));
      await all;
      const status = new Map(answers.map((a) => [a.sequence_number, a.command_status]));
      expect([1, 2, 3, 4, 5].map((n) => status.get(9000 + n))).toEqual([0, 0, 0x14, 0x14, 0x14]);
      c.removeAllListeners('submit_sm_resp');
      expect(
        (await ask(c, 'submit_sm', { destination_addr: nextNumber(), short_message: 'after' }))
          .command_status,
      ).toBe(0);
    } finally {
      state.timing = before;
    }
  });

  it('answers ESME_RTHROTTLED above the account’s rate and loses nothing it accepted', async () => {
    const u = await smppUser();
    await s.db.query('UPDATE smpp_accounts SET rate_per_second = 5 WHERE system_id = $1', [u.systemId]);
    const c = await bound(u);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        ask(c, 'submit_sm', { destination_addr: nextNumber(), short_message: `burst ${i}` }),
      ),
    );
    const ok = answers.filter((a) => a.command_status === 0);
    expect(ok).toHaveLength(5);
    expect(answers.filter((a) => a.command_status === 0x58)).toHaveLength(3);
    for (const a of ok) expect((await apiMessage(u.key, a.message_id!)).status).toBe('queued');
    expect(await balanceOf(u)).toBeCloseTo(4.95, 6);
    // A second later the bucket has refilled.
    s.clock.advance(1000);
    expect(
      (await ask(c, 'submit_sm', { destination_addr: nextNumber(), short_message: 'later' })).command_status,
    ).toBe(0);
  });

  it('a burst of 100 with a window of 10 at the default 30/s: the excess throttled, retried, and every message kept once', async () => {
    const u = await smppUser();
    const c = await bound(u);
    const pending = Array.from({ length: 100 }, (_, i) => ({ to: nextNumber(), text: `window ${i}` }));
    const accepted = new Map<string, string>();
    let throttled = 0;
    for (let round = 0; pending.length > 0 && round < 10; round++) {
      const left = pending.splice(0);
      // The client's window: at most 10 submits outstanding at a time.
      for (let i = 0; i < left.length; i += 10) {
        const batch = left.slice(i, i + 10);
        const answers = await Promise.all(
          batch.map((m) => ask(c, 'submit_sm', { destination_addr: m.to, short_message: m.text })),
        );
        answers.forEach((a, k) => {
          if (a.command_status === 0) accepted.set(batch[k]!.to, a.message_id!);
          else {
            expect(a.command_status).toBe(0x58);
            throttled += 1;
            pending.push(batch[k]!);
          }
        });
      }
      // The throttled ones go again a second later, as a client does.
      s.clock.advance(1000);
    }
    expect(pending).toEqual([]);
    expect(accepted.size).toBe(100);
    expect(throttled).toBeGreaterThanOrEqual(70);
    expect(new Set(accepted.values()).size).toBe(100);
    // Every accepted submit is one message, charged once (100 × $0.01).
    expect(await balanceOf(u)).toBeCloseTo(4, 6);
    for (const id of [...accepted.values()].slice(0, 5))
      expect((await apiMessage(u.key, id)).status).toBe('queued');
  });
});

describe('SMPP over TLS', () => {
  it('listens on the TLS port when a certificate and key are set, and binds there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smpp-tls-'));
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const t = await startTestServer({ env: { SMPP_TLS_PORT: '0', SMPP_TLS_CERT: cert, SMPP_TLS_KEY: key } });
    try {
      const u = await userWithApiKey(t, 1);
      const keys = await t.api(endpoints.apikey.keys, { token: u.token });
      const made = await t.api(endpoints.smpp.password, {
        body: { id: keys.body.keys[0]!.id },
        token: u.token,
        headers: await t.reauth(u),
      });
      const tlsPort = smppPorts(t.ctx).tls!;
      expect(made.body.tlsPort).toBe(tlsPort);
      const c = await new Promise<Session>((resolve, reject) => {
        const session = connect(
          { host: '127.0.0.1', port: tlsPort, tls: true, rejectUnauthorized: false },
          () => resolve(session),
        );
        session.on('error', reject);
      });
      sessions.push(c);
      const r = await ask(c, 'bind_transceiver', {
        system_id: made.body.systemId,
        password: made.body.password,
      });
      expect(r.command_status).toBe(0);
      expect(t.logs.some((l) => l.includes('"msg":"smpp bind"') && l.includes('"tls":true'))).toBe(true);
      c.destroy();
    } finally {
      await t.close();
    }
  });
});

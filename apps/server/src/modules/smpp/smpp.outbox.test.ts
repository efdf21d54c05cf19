import { endpoints } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import type { Pdu, Session } from 'smpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../db/db.ts';
import { startServer } from '../../server.ts';
import { addSimGateway } from '../../test/fixtures.ts';
import { openTestDb, startTestServer, type TestDb, type TestServer, testConfig } from '../../test/harness.ts';
import { ask, smppClient, smppUser as smppUserOf } from '../../test/smpp.ts';
import { dispatchUntil } from '../../test/suites.ts';
import { dispatchOnce, failOverdueResults } from '../messaging/index.ts';
import { smppPorts } from './index.ts';
import { pruneOutbox } from './outbox.ts';

// Receipts and replies as deliver_sm, driven by the npm `smpp` client: a receipt under the id the
// submit answered (DELIVRD, UNDELIV), receipts queued while no receiver was bound, a reply as MO,
// query_sm, and a receipt recorded by one server reaching a bind on another server of the database.

let s: TestServer;
let testDb: TestDb;
let sim: GatewaySim;
const sessions: Session[] = [];
const failing = new Set<string>();

beforeAll(async () => {
  testDb = await openTestDb({ migrated: true });
  s = await startTestServer({ testDb, env: { SMS_PER_SIM_PER_MINUTE: '600' } });
  const admin = await s.adminToken();
  await s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 20, MaxMsgPerDay: 1000, SmsPricePerSegment: 0.01, MmsPrice: 0.05 },
    token: admin,
  });
  sim = await GatewaySim.start({ ports: 2, sendDelayMs: 5 });
  sim.setOutcome((t) => ([...failing].some((n) => t.to.includes(n)) ? 'fail' : 'ok'));
  await addSimGateway(s, admin, sim, 'smpp outbox box');
});
afterAll(async () => {
  for (const c of sessions) c.destroy();
  await sim.stop();
  await s.close();
});

const smppUser = () => smppUserOf(s);
type SmppUser = Awaited<ReturnType<typeof smppUser>>;

/** A bound client that acknowledges every deliver_sm and keeps them in arrival order. */
async function bind(
  u: SmppUser,
  mode: 'bind_transceiver' | 'bind_transmitter' | 'bind_receiver',
  port = smppPorts(s.ctx).plain!,
  ack = true,
) {
  const c = await smppClient(s, sessions, port);
  const got: Pdu[] = [];
  c.on('pdu', (pdu: Pdu) => {
    if (pdu.command === 'deliver_sm') {
      got.push(pdu);
      if (ack) c.send(pdu.response());
    }
  });
  const r = await ask(c, mode, { system_id: u.systemId, password: u.smppPassword });
  expect(r.command_status).toBe(0);
  return { c, got };
}

async function waitFor(check: () => boolean | Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('not in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const statusOf = async (id: string) =>
  (
    await s.db.query<{ status: string }>('SELECT status FROM messages WHERE id = $1::bigint', [id.slice(1)])
  )[0]?.status;
const outboxRows = async (keyId: string) =>
  (await s.db.query('SELECT id FROM smpp_outbox WHERE api_key_id = $1::uuid', [keyId])).length;

let numberSeq = 14255550000;
const nextNumber = () => String(++numberSeq);
const text = (p: Pdu) => String(p.short_message?.message);

describe('SMPP delivery receipts', () => {
  it('arrive under the submit’s id when asked: DELIVRD, and UNDELIV for a recipient that fails; none unasked', async () => {
    const u = await smppUser();
    const { c, got } = await bind(u, 'bind_transceiver');
    const ok = nextNumber();
    const bad = nextNumber();
    failing.add(bad);
    const a = await ask(c, 'submit_sm', {
      source_addr: 'ACME',
      destination_addr: ok,
      short_message: 'Your code is 1234, thanks',
      registered_delivery: 1,
    });
    const b = await ask(c, 'submit_sm', {
      source_addr: 'ACME',
      destination_addr: bad,
      short_message: 'Lost',
      registered_delivery: 1,
    });
    const quiet = await ask(c, 'submit_sm', {
      source_addr: 'ACME',
      destination_addr: nextNumber(),
      short_message: 'No receipt',
    });
    expect([a.command_status, b.command_status, quiet.command_status]).toEqual([0, 0, 0]);
    await dispatchUntil(
      { s, sim },
      async () =>
        (await statusOf(a.message_id!)) === 'delivered' &&
        (await statusOf(b.message_id!)) === 'failed' &&
        (await statusOf(quiet.message_id!)) === 'delivered',
      60,
    );
    await waitFor(() => got.length >= 2);
    await waitFor(async () => (await outboxRows(u.keyId)) === 0);
    const byId = new Map(got.map((p) => [p.receipted_message_id, p]));
    expect(got).toHaveLength(2);
    const d = byId.get(a.message_id)!;
    expect(d).toMatchObject({ esm_class: 4, message_state: 2, source_addr: ok, destination_addr: 'ACME' });
    expect(text(d)).toMatch(
      new RegExp(
        `^id:${a.message_id} sub:001 dlvrd:001 submit date:\\d{10} done date:\\d{10} stat:DELIVRD err:000 text:Your code is 1234, t$`,
      ),
    );
    const f = byId.get(b.message_id)!;
    expect(f).toMatchObject({ esm_class: 4, message_state: 5 });
    expect(text(f)).toMatch(
      new RegExp(`^id:${b.message_id} sub:001 dlvrd:000 .* stat:UNDELIV err:\\d{3} text:Lost$`),
    );
    // This file's server: the one transceiver bind so far, three accepted submits, two receipts.
    const metrics = await s.ctx.metrics.text();
    expect(metrics).toContain('simdock_smpp_binds_total{mode="transceiver"} 1');
    expect(metrics).toContain('simdock_smpp_submits_total{outcome="accepted"} 3');
    expect(metrics).toContain('simdock_smpp_receipts_total{stage="queued"} 2');
    expect(metrics).toContain('simdock_smpp_receipts_total{stage="sent"} 2');
  });

  it('queued while no receiver is bound go out to the receiver that binds later, in order', async () => {
    const u = await smppUser();
    const { c } = await bind(u, 'bind_transmitter');
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const r = await ask(c, 'submit_sm', {
        destination_addr: nextNumber(),
        short_message: `Later ${n}`,
        registered_delivery: 1,
      });
      ids.push(r.message_id!);
    }
    await dispatchUntil(
      { s, sim },
      async () => (await Promise.all(ids.map(statusOf))).every((st) => st === 'delivered'),
      60,
    );
    await waitFor(async () => (await outboxRows(u.keyId)) === 3);
    const rx = await bind(u, 'bind_receiver');
    await waitFor(() => rx.got.length === 3);
    const rows = await s.db.query<{ message_id: string }>(
      'SELECT message_id FROM smpp_outbox WHERE api_key_id = $1::uuid ORDER BY id',
      [u.keyId],
    );
    expect(rows).toEqual([]);
    // Receipts are recorded in the order the results came: the same order here.
    expect(new Set(rx.got.map((p) => p.receipted_message_id))).toEqual(new Set(ids));
    const order = rx.got.map((p) => p.receipted_message_id);
    expect(order).toEqual([...order].sort((x, y) => Number(x!.slice(1)) - Number(y!.slice(1))));
  });
});

describe('SMPP outbox', () => {
  it('keeps a receipt the client never acknowledged and sends it again at the next bind', async () => {
    const u = await smppUser();
    const mute = await bind(u, 'bind_receiver', undefined, false);
    const { c } = await bind(u, 'bind_transmitter');
    const r = await ask(c, 'submit_sm', {
      destination_addr: nextNumber(),
      short_message: 'Again',
      registered_delivery: 1,
    });
    await dispatchUntil({ s, sim }, async () => (await statusOf(r.message_id!)) === 'delivered', 60);
    await waitFor(() => mute.got.length === 1);
    mute.c.destroy();
    await new Promise((done) => setTimeout(done, 100));
    expect(await outboxRows(u.keyId)).toBe(1);
    const rx = await bind(u, 'bind_receiver');
    await waitFor(() => rx.got.length === 1);
    expect(rx.got[0]!.receipted_message_id).toBe(r.message_id);
    await waitFor(async () => (await outboxRows(u.keyId)) === 0);
  });
});

describe('SMPP replies and query_sm', () => {
  it('hands a reply to an SMPP message to the account as MO deliver_sm (UCS-2 when needed)', async () => {
    const u = await smppUser();
    const { c, got } = await bind(u, 'bind_transceiver');
    const to = nextNumber();
    const r = await ask(c, 'submit_sm', {
      source_addr: '15550001111',
      destination_addr: to,
      short_message: 'Are you there?',
    });
    await dispatchUntil({ s, sim }, async () => (await statusOf(r.message_id!)) === 'delivered', 60);
    const [m] = await s.db.query<{ port: string }>('SELECT port FROM messages WHERE id = $1::bigint', [
      r.message_id!.slice(1),
    ]);
    s.clock.advance(1000);
    sim.injectSms({
      port: m!.port,
      from: `+${to}`,
      text: 'Yes, here ☺',
      ts: Math.floor(s.clock.now().getTime() / 1000),
    });
    await sim.pushesSettled();
    await waitFor(() => got.length === 1);
    expect(got[0]).toMatchObject({
      esm_class: 0,
      data_coding: 8,
      source_addr: to,
      destination_addr: '15550001111',
    });
    expect(text(got[0]!)).toBe('Yes, here ☺');
  });

  it('answers the state of the account’s own messages, ESME_RQUERYFAIL for others and unknown ids', async () => {
    const u = await smppUser();
    const other = await smppUser();
    const { c } = await bind(u, 'bind_transceiver');
    const r = await ask(c, 'submit_sm', { destination_addr: nextNumber(), short_message: 'Query me' });
    const early = await ask(c, 'query_sm', { message_id: r.message_id });
    expect(early).toMatchObject({ command_status: 0, message_id: r.message_id });
    expect([1, 2]).toContain(early.message_state);
    await dispatchUntil({ s, sim }, async () => (await statusOf(r.message_id!)) === 'delivered', 60);
    const done = await ask(c, 'query_sm', { message_id: r.message_id });
    expect(done).toMatchObject({ command_status: 0, message_state: 2 });
    expect(done.final_date).toBeTruthy();
    expect((await ask(c, 'query_sm', { message_id: 'o999999999' })).command_status).toBe(0x67);
    const { c: theirs } = await bind(other, 'bind_transceiver');
    expect((await ask(theirs, 'query_sm', { message_id: r.message_id })).command_status).toBe(0x67);
  });
});

describe('SMPP receipts across server processes', () => {
  it('a receipt of a submit on one server reaches a receiver bound on another server of the database', async () => {
    // On PostgreSQL a server of its own connection (the event travels as a NOTIFY); on PGlite,
    // which has one connection, a second server sharing it.
    const dbB = testDb.url ? await openPostgres(testDb.url) : undefined;
    const real = dbB
      ? await startServer({
          config: testConfig({}),
          db: dbB,
          clock: s.clock,
          workers: false,
          logStream: { write: () => {} },
        })
      : undefined;
    const shared = real ? undefined : await startTestServer({ testDb: { db: s.db, drop: async () => {} } });
    const second = (real ?? shared)!;
    try {
      const u = await smppUser();
      const rx = await bind(u, 'bind_receiver', smppPorts(second.ctx).plain!);
      const { c } = await bind(u, 'bind_transmitter');
      const r = await ask(c, 'submit_sm', {
        destination_addr: nextNumber(),
        short_message: 'Across',
        registered_delivery: 1,
      });
      await dispatchUntil({ s, sim }, async () => (await statusOf(r.message_id!)) === 'delivered', 60);
      await waitFor(() => rx.got.length === 1);
      expect(rx.got[0]).toMatchObject({ receipted_message_id: r.message_id, message_state: 2 });
    } finally {
      await real?.stop();
      await shared?.close();
      await dbB?.close();
    }
  });
});

describe('SMPP validity_period', () => {
  it('a message still queued when its validity ends is not sent: failed as expired, refunded, receipt EXPIRED', async () => {
    const u = await smppUser();
    const { c, got } = await bind(u, 'bind_transceiver');
    const bad = await ask(c, 'submit_sm', {
      destination_addr: nextNumber(),
      short_message: 'Bad validity',
      validity_period: '261399000000000+',
    });
    expect(bad.command_status).toBe(0x62);
    // Five seconds (relative), and an absolute time already past.
    const soon = await ask(c, 'submit_sm', {
      destination_addr: nextNumber(),
      short_message: 'Soon stale',
      registered_delivery: 1,
      validity_period: '000000000005000R',
    });
    const past = await ask(c, 'submit_sm', {
      destination_addr: nextNumber(),
      short_message: 'Already stale',
      registered_delivery: 1,
      validity_period: new Date(s.clock.now().getTime() - 60_000),
    });
    expect([soon.command_status, past.command_status]).toEqual([0, 0]);
    s.clock.advance(10_000);
    // The dispatcher (its gateway offline or not) takes neither.
    await dispatchOnce(s.ctx);
    expect([await statusOf(soon.message_id!), await statusOf(past.message_id!)]).toEqual([
      'queued',
      'queued',
    ]);
    await failOverdueResults(s.ctx);
    const rows = await s.db.query<{ status: string; refunded: boolean }>(
      `SELECT status, refunded_at IS NOT NULL AS refunded FROM messages WHERE id = ANY($1::bigint[])`,
      [[soon.message_id!.slice(1), past.message_id!.slice(1)]],
    );
    expect(rows).toEqual([
      { status: 'failed', refunded: true },
      { status: 'failed', refunded: true },
    ]);
    await waitFor(() => got.length === 2);
    for (const p of got) {
      expect(p).toMatchObject({ esm_class: 4, message_state: 3 });
      expect(text(p)).toMatch(/ stat:EXPIRED err:\d{3} /);
    }
    expect((await ask(c, 'query_sm', { message_id: soon.message_id })).message_state).toBe(3);
  });
});

describe('SMPP bind limit across server processes', () => {
  it('counts the binds of every process: a third is refused on either, one more after an unbind', async () => {
    // Two servers, each with its own connection to the database (PostgreSQL only).
    if (!testDb.url) return;
    const dbB = await openPostgres(testDb.url);
    const second = await startServer({
      config: testConfig({}),
      db: dbB,
      clock: s.clock,
      workers: false,
      logStream: { write: () => {} },
    });
    try {
      const u = await smppUser();
      await s.db.query('UPDATE smpp_accounts SET bind_limit = 2 WHERE api_key_id = $1::uuid', [u.keyId]);
      // A row of a crashed process, not seen for long: ignored, and pruned.
      const now = s.clock.now().getTime();
      await s.db.query(
        `INSERT INTO smpp_binds (id, api_key_id, process_id, host, bound_at, seen_at)
         VALUES (gen_random_uuid(), $1::uuid, 'gone', 'gone', $2, $2)`,
        [u.keyId, new Date(now - 10 * 60_000)],
      );
      const portA = smppPorts(s.ctx).plain!;
      const portB = smppPorts(second.ctx).plain!;
      const tryBind = async (port: number) => {
        const c = await smppClient(s, sessions, port);
        const r = await ask(c, 'bind_transmitter', { system_id: u.systemId, password: u.smppPassword });
        return { c, status: r.command_status };
      };
      const binds = async () =>
        (
          await s.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM smpp_binds WHERE api_key_id = $1::uuid',
            [u.keyId],
          )
        )[0]!.n;
      // Two at once, one on each process: both pass.
      const [a, b] = await Promise.all([tryBind(portA), tryBind(portB)]);
      expect([a.status, b.status]).toEqual([0, 0]);
      expect(await binds()).toBe(2);
      expect((await tryBind(portA)).status).toBe(0x0d);
      expect((await tryBind(portB)).status).toBe(0x0d);
      // Simultaneous third binds on both processes: neither passes.
      const [x, y] = await Promise.all([tryBind(portA), tryBind(portB)]);
      expect([x.status, y.status]).toEqual([0x0d, 0x0d]);
      await new Promise<Pdu>((resolve) => b.c.unbind({}, resolve));
      await waitFor(async () => (await binds()) === 1);
      expect((await tryBind(portA)).status).toBe(0);
      expect(await binds()).toBe(2);
    } finally {
      await second.stop();
      await dbB.close();
    }
  });

  it('refuses a third bind when two at once race for the last place', async () => {
    if (!testDb.url) return;
    const u = await smppUser();
    await s.db.query('UPDATE smpp_accounts SET bind_limit = 1 WHERE api_key_id = $1::uuid', [u.keyId]);
    const port = smppPorts(s.ctx).plain!;
    const statuses = await Promise.all(
      [1, 2, 3].map(async () => {
        const c = await smppClient(s, sessions, port);
        return (await ask(c, 'bind_transmitter', { system_id: u.systemId, password: u.smppPassword }))
          .command_status;
      }),
    );
    expect(statuses.filter((st) => st === 0)).toHaveLength(1);
  });
});

describe('SMPP outbox bounds', () => {
  it('drops rows past the age limit and each account’s oldest beyond the count limit, logged', async () => {
    const u = await smppUser();
    const v = await smppUser();
    const add = (keyId: string, n: number, at: Date) =>
      s.db.query(
        `INSERT INTO smpp_outbox (api_key_id, kind, message_id, body, created_at)
         SELECT $1::uuid, 'mo', 'i' || g, '{"from":"1","to":"2","text":"x"}'::jsonb, $3
           FROM generate_series(1, $2::int) g`,
        [keyId, n, at],
      );
    const now = s.clock.now().getTime();
    await add(u.keyId, 2, new Date(now - 73 * 3600_000));
    await add(u.keyId, 5, new Date(now));
    await add(v.keyId, 3, new Date(now));
    const mark = s.logs.length;
    expect(await pruneOutbox(s.ctx, { maxRows: 3, maxAgeMs: 72 * 3600_000 })).toBe(4);
    const left = await s.db.query<{ message_id: string }>(
      'SELECT message_id FROM smpp_outbox WHERE api_key_id = $1::uuid ORDER BY id',
      [u.keyId],
    );
    expect(left.map((r) => r.message_id)).toEqual(['i3', 'i4', 'i5']);
    expect(await outboxRows(v.keyId)).toBe(3);
    const lines = s.logs.slice(mark);
    expect(lines.some((l) => l.includes('rows too old dropped'))).toBe(true);
    expect(lines.some((l) => l.includes('rows beyond the limit dropped'))).toBe(true);
  });
});

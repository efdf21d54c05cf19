import { endpoints } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import { afterEach, describe, expect, it } from 'vitest';
import { addSimGateway, waitFor } from '../../test/fixtures.ts';
import { TEST_DB, type TestServer } from '../../test/harness.ts';
import { serverSendingThroughSims } from '../../test/suites.ts';
import { forgetFinishedTurns, lockQueued } from './dispatch.queries.ts';
import { type DispatchResult, dispatchOnce } from './dispatch.service.ts';

// The fair queue: users with queued messages share the SIMs in turn, a user's campaigns (and its
// chat replies, as one group) in turn within the user's share, first in first out within a
// campaign; the turn is database state, so it carries over ticks and dispatcher processes. The
// dispatcher runs against simulated gateways; each claim's messages are read in the order taken.

let s: TestServer;
let admin: string;
const sims: GatewaySim[] = [];
const gatewayIds: string[] = [];

serverSendingThroughSims(
  // Two messages per SIM per one-second tick.
  { env: { SMS_PER_SIM_PER_MINUTE: '120', SMS_LEASE_SECONDS: '30' }, sims, cancelLeftovers: true },
  (t) => {
    ({ s, admin } = t);
  },
);
afterEach(() => {
  // Each test starts with no gateway and nothing queued (the gateways themselves: see serverSendingThroughSims).
  gatewayIds.length = 0;
});

let seq = 0;
/** A simulated gateway with `ports` SIMs, scanned and online. */
async function gateway(ports: number): Promise<GatewaySim> {
  const sim = await GatewaySim.start({ ports, sendDelayMs: 5 });
  sims.push(sim);
  seq += 1;
  gatewayIds.push(await addSimGateway(s, admin, sim, `fair ${seq}`));
  return sim;
}

type User = { id: string; token: string; name: string };
async function user(name: string): Promise<User> {
  const u = await s.createUser();
  return { id: u.id, token: u.token, name };
}

let numberSeq = 18000000000;
/** A campaign of `n` messages; its message ids in the order of the recipients given. */
async function send(u: User, n: number): Promise<{ campaignId: string; ids: string[]; numbers: string[] }> {
  const numbers = Array.from({ length: n }, () => String(++numberSeq));
  const res = await s.api(endpoints.outreach.sendMassSms, {
    body: { number: numbers.join('\n'), mess: 'Hi' },
    token: u.token,
  });
  expect(res.status).toBe(200);
  const campaignId = res.body.data!.campaignId as string;
  const rows = await s.db.query<{ id: string; recipient: string }>(
    'SELECT id::text AS id, recipient FROM messages WHERE campaign_id = $1::bigint',
    [campaignId],
  );
  const byNumber = new Map(rows.map((r) => [r.recipient, r.id]));
  return { campaignId, ids: numbers.map((x) => byNumber.get(x)!), numbers };
}

/** Names messages for the assertions: `label` + its place in its campaign (1-based), e.g. "A3". */
const names = new Map<string, string>();
function name(label: string, ids: string[]): void {
  for (const [i, id] of ids.entries()) names.set(id, `${label}${i + 1}`);
}

/** One dispatcher tick (the clock then moves a tick on); the messages claimed, in the order taken. */
async function tick(): Promise<string[]> {
  const taken: string[] = [];
  await touchGateways();
  await dispatchOnce(s.ctx, { afterClaim: (c) => void taken.push(...c.assignments.map((a) => a.id)) });
  for (const sim of sims) await sim.pushesSettled();
  s.clock.advance(1000);
  return taken.map((id) => names.get(id) ?? `?${id}`);
}

/** The gateways stay online on the manual clock. */
async function touchGateways(): Promise<void> {
  await s.db.query('UPDATE gateways SET last_update = $2 WHERE id = ANY($1::uuid[])', [
    gatewayIds,
    s.clock.now(),
  ]);
}

const statusesOf = (ids: string[]) =>
  s.db.query<{ status: string }>('SELECT status FROM messages WHERE id = ANY($1::bigint[]) ORDER BY id', [
    ids,
  ]);

describe('fair dispatch queue', () => {
  it("a user's 2-message send goes out in the first tick, behind no other user's big campaign", async () => {
    await gateway(2); // 4 messages a tick
    const a = await user('A');
    const b = await user('B');
    const big = await send(a, 300);
    name('A', big.ids);
    const small = await send(b, 2);
    name('B', small.ids);
    // A queued first, so A leads the round; B's two come right after A's first two, not after 300.
    expect(await tick()).toEqual(['A1', 'B1', 'A2', 'B2']);
    await waitFor(async () => (await statusesOf(small.ids)).every((r) => r.status === 'delivered'));

    // B sends again while A's campaign is going out: the turn goes on where the last tick ended
    // (B had the last slot), so A leads this round and B's two still go out in this tick.
    const again = await send(b, 2);
    name('b', again.ids);
    expect(await tick()).toEqual(['A3', 'b1', 'A4', 'b2']);
    // With B done, A has every SIM again.
    expect(await tick()).toEqual(['A5', 'A6', 'A7', 'A8']);
  });

  it("forgets a campaign's turn once nothing of it can be queued again, keeps a sending one's", async () => {
    await gateway(2);
    const a = await user('A');
    const done = await send(a, 2);
    const going = await send(a, 50);
    name('A', done.ids);
    await tick();
    await waitFor(async () => (await statusesOf(done.ids)).every((r) => r.status === 'delivered'));
    const turns = () =>
      s.db.query<{ grp: string }>(
        'SELECT grp::text AS grp FROM messaging_turns WHERE user_id = $1 ORDER BY grp',
        [a.id],
      );
    expect((await turns()).map((t) => t.grp)).toEqual(['-1', done.campaignId, going.campaignId]);
    await forgetFinishedTurns(s.db);
    expect((await turns()).map((t) => t.grp)).toEqual(['-1', going.campaignId]);
  });

  it('users take the SIMs in turn, and the turn carries over from one tick to the next', async () => {
    await gateway(2);
    const [a, b, c] = [await user('A'), await user('B'), await user('C')];
    for (const u of [a, b, c]) name(u.name, (await send(u, 20)).ids);
    const ticks = [await tick(), await tick(), await tick()];
    expect(ticks).toEqual([
      ['A1', 'B1', 'C1', 'A2'],
      ['B2', 'C2', 'A3', 'B3'],
      ['C3', 'A4', 'B4', 'C4'],
    ]);
  });

  it('with more users than a tick has slots, everyone still gets a turn within two ticks', async () => {
    await gateway(2);
    const users = [];
    for (const n of ['P', 'Q', 'R', 'S', 'T', 'U']) users.push(await user(n));
    for (const u of users) name(u.name, (await send(u, 10)).ids);
    expect([await tick(), await tick(), await tick()]).toEqual([
      ['P1', 'Q1', 'R1', 'S1'],
      ['T1', 'U1', 'P2', 'Q2'],
      ['R2', 'S2', 'T2', 'U2'],
    ]);
  });

  it("a user's campaigns and chat replies take turns within the user's share", async () => {
    await gateway(1); // one SIM, 2 messages a tick: the chat replies are pinned to it
    const a = await user('A');
    const b = await user('B');
    // A talked to two numbers before (their conversations use the SIM); those replies queue as one group.
    const earlier = await send(a, 2);
    name('w', earlier.ids);
    await tick();
    await waitFor(async () => (await statusesOf(earlier.ids)).every((r) => r.status === 'delivered'));
    const x = await send(a, 3);
    name('X', x.ids);
    const y = await send(a, 3);
    name('Y', y.ids);
    const chat: string[] = [];
    for (const [i, number] of earlier.numbers.entries()) {
      const [conv] = await s.db.query<{ id: string }>(
        'SELECT id::text AS id FROM conversations WHERE user_id = $1 AND receiver = $2',
        [a.id, number],
      );
      const res = await s.api(endpoints.livechat.reply, {
        body: {
          conversationId: conv!.id,
          sms: `reply ${i}`,
          toNumber: number,
          mmsType: 0,
          mmsTitle: '',
          mmsFile: '',
        },
        token: a.token,
      });
      expect(res.status).toBe(200);
      const [m] = await s.db.query<{ id: string }>(
        `SELECT id::text AS id FROM messages WHERE conversation_id = $1::bigint AND campaign_id IS NULL`,
        [conv!.id],
      );
      chat.push(m!.id);
    }
    name('c', chat);
    const z = await send(b, 3);
    name('Z', z.ids);

    const ticks: string[][] = [];
    for (let i = 0; i < 6; i++) ticks.push(await tick());
    // B (never served) and A alternate while both have messages; A's three groups rotate: the
    // chat replies (a new group), X, Y, and on in turn; each group first in first out.
    expect(ticks).toEqual([['Z1', 'c1'], ['Z2', 'X1'], ['Z3', 'Y1'], ['c2', 'X2'], ['Y2', 'X3'], ['Y3']]);
  });

  it('first in first out within a campaign, a retried message first', async () => {
    const sim = await gateway(2);
    const a = await user('A');
    const c = await send(a, 10);
    name('A', c.ids);
    // The first message fails on its SIM ("this SIM cannot send", in the device's report): it is
    // queued again and, the oldest of its campaign, goes first in the next tick (on the other SIM).
    let refused = false;
    sim.setOutcome(({ to }) => {
      if (to === c.numbers[0] && !refused) {
        refused = true;
        return 'unregistered';
      }
      return 'ok';
    });
    expect(await tick()).toEqual(['A1', 'A2', 'A3', 'A4']);
    await waitFor(async () => (await statusesOf([c.ids[0]!]))[0]!.status === 'queued');
    expect(await tick()).toEqual(['A1', 'A5', 'A6', 'A7']);
    expect(await tick()).toEqual(['A8', 'A9', 'A10']);
  });

  it('two dispatchers side by side follow the same order: the small send still gets its turn', async () => {
    await gateway(2);
    await gateway(2); // 8 messages a tick
    const a = await user('A');
    const b = await user('B');
    const big = await send(a, 300);
    name('A', big.ids);
    await tick();
    const small = await send(b, 2);
    name('B', small.ids);
    await touchGateways();
    const taken: string[] = [];
    const run = () =>
      dispatchOnce(s.ctx, { afterClaim: (c) => void taken.push(...c.assignments.map((x) => x.id)) });
    const results: DispatchResult[] = await Promise.all([run(), run()]);
    for (const sim of sims) await sim.pushesSettled();
    // Between them the two used this tick's 8 slots once: B's two messages and A's next six.
    expect(results.reduce((n, r) => n + r.claimed, 0)).toBe(8);
    expect(taken.map((id) => names.get(id)).sort()).toEqual(
      ['A10', 'A11', 'A12', 'A13', 'A14', 'A9', 'B1', 'B2'].sort(),
    );
    await waitFor(async () => (await statusesOf(small.ids)).every((r) => r.status === 'delivered'));
  });

  // PGlite is one connection: two transactions cannot be open at once there.
  it.skipIf(TEST_DB === 'pglite')(
    "a second dispatcher skips the first one's messages and goes on in the same fair order",
    async () => {
      const a = await user('A');
      const b = await user('B');
      name('A', (await send(a, 50)).ids);
      name('B', (await send(b, 4)).ids);
      const now = s.clock.now();
      const order = await s.db.tx(async (first) => {
        const mine = await lockQueued(first, now, 2, []);
        // The first dispatcher still holds its two while another process claims.
        const theirs = await s.db.tx((second) => lockQueued(second, now, 4, []));
        return { mine: mine.map((m) => names.get(m.id)), theirs: theirs.map((m) => names.get(m.id)) };
      });
      expect(order).toEqual({ mine: ['A1', 'B1'], theirs: ['A2', 'B2', 'A3', 'B3'] });
    },
  );
});

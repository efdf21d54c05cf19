import { endpoints } from '@simdock/contract';
// Signed-in requests arriving together share their reads (the sign-in check, user/info's user and
// key, the order list: one statement per turn of the event loop). These tests hold that sharing to
// what each request must still get: its own user's data, current as of after it arrived, and the
// refusal of a user who may no longer call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listUserOrders } from '../modules/rental/index.ts';
import { activeUserById, userInfo } from '../modules/users/index.ts';
import { addService, seedGateway } from '../test/fixtures.ts';
import { startTestServer, type TestServer } from '../test/harness.ts';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
  await seedGateway(s.db, { sims: 16, lastUpdate: s.clock.now() });
  await addService(s.db, { code: 'tg', name: 'Telegram', price: 1 });
});
afterAll(async () => {
  await s.close();
});

async function userWithOrders(balance: number, rents: number) {
  const u = await s.createUser({ balance });
  const ids: string[] = [];
  for (let i = 0; i < rents; i++) {
    const r = await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: u.token });
    expect(r.status).toBe(200);
    ids.push(r.body.data.id);
  }
  return { ...u, orderIds: ids, balance: balance - rents };
}

describe('concurrent signed-in reads', () => {
  it('give every request its own user, key and orders, and refuse a deactivated user in the same burst', async () => {
    const users = [
      await userWithOrders(10, 2),
      await userWithOrders(20, 1),
      await userWithOrders(30, 0),
      await userWithOrders(40, 3),
    ];
    const keys = new Map<string, string>();
    for (const u of users.slice(0, 2)) {
      keys.set(
        u.id,
        (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) })).body.apiKey,
      );
    }
    const gone = await userWithOrders(50, 1);
    await s.db.query(`UPDATE users SET status = 'Inactive' WHERE id = $1`, [gone.id]);

    // Every request of the burst is in flight at once; each user's calls appear several times.
    const burst = [...users, gone, ...users, gone, ...users].flatMap((u) => [
      s.api(endpoints.user.info, { token: u.token }).then((r) => ({ u, kind: 'info' as const, r })),
      s.api(endpoints.order.getByUser, { token: u.token }).then((r) => ({ u, kind: 'orders' as const, r })),
    ]);
    for (const { u, kind, r } of await Promise.all(burst)) {
      if (u === gone) {
        expect(r.status, kind).toBe(401);
        continue;
      }
      expect(r.status, kind).toBe(200);
      if (kind === 'info') {
        expect(r.body).toMatchObject({
          username: u.username,
          balance: u.balance,
          apiKey: keys.get(u.id) ?? null,
        });
      } else {
        expect(r.body.orders.map((o: { id: string }) => o.id)).toEqual([...u.orderIds].reverse());
      }
    }
  });

  it('reads after each request arrived: a change committed before a burst is seen by all of it', async () => {
    const u = await userWithOrders(10, 1);
    const before = await Promise.all(
      [1, 2, 3].map(() => s.api(endpoints.order.getByUser, { token: u.token })),
    );
    for (const r of before) expect(r.body.orders).toHaveLength(1);
    const second = await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: u.token });
    const after = await Promise.all(
      [1, 2, 3].flatMap(() => [
        s.api(endpoints.order.getByUser, { token: u.token }),
        s.api(endpoints.user.info, { token: u.token }),
      ]),
    );
    for (const r of after) {
      if ('orders' in r.body) expect(r.body.orders[0].id).toBe(second.body.data.id);
      else expect(r.body.balance).toBe(8);
    }
  });

  it('a malformed or unknown user id in a token is refused without failing the others', async () => {
    const u = await userWithOrders(5, 0);
    const [ok, bogus] = await Promise.all([
      s.api(endpoints.user.info, { token: u.token }),
      s.api(endpoints.user.info, { token: 'not-a-token' }),
    ]);
    expect(ok.status).toBe(200);
    expect(bogus.status).toBe(401);
  });

  it('in one batch (lookups made in the same turn), each caller gets its own user, key and orders', async () => {
    const users = [await userWithOrders(10, 2), await userWithOrders(20, 0), await userWithOrders(30, 1)];
    const key = (
      await s.api(endpoints.apikey.reset, { token: users[0]!.token, headers: await s.reauth(users[0]!) })
    ).body.apiKey;
    await s.db.query(`UPDATE users SET status = 'Inactive' WHERE id = $1`, [users[2]!.id]);
    // All started in the same synchronous turn, so each kind of read is one statement.
    const ids = [...users.map((u) => u.id), users[0]!.id.toUpperCase(), 'not-a-uuid'];
    const [active, infos, lists] = await Promise.all([
      Promise.all(ids.map((id) => activeUserById(s.ctx, id))),
      Promise.all(users.map((u) => userInfo(s.ctx, { id: u.id, username: u.username, roles: ['User'] }))),
      Promise.all(ids.map((id) => listUserOrders(s.ctx, id))),
    ]);
    expect(active.map((u) => u?.username)).toEqual([
      users[0]!.username,
      users[1]!.username,
      undefined,
      users[0]!.username,
      undefined,
    ]);
    expect(infos.map((i) => [i.username, i.balance, i.apiKey])).toEqual([
      [users[0]!.username, 8, key],
      [users[1]!.username, 20, null],
      [users[2]!.username, 29, null],
    ]);
    expect(lists.map((l) => l.map((o) => o.id))).toEqual([
      [...users[0]!.orderIds].reverse(),
      [],
      users[2]!.orderIds,
      [...users[0]!.orderIds].reverse(),
      [],
    ]);
  });
});

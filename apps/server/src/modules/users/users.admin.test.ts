import { endpoints, ruleMessages } from '@simdock/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerMismatches } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { removeUser, saveUser } from './users.admin.service.ts';

let s: TestServer;
let admin: string;
let adminId: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  adminId = (await s.db.query<{ id: string }>("SELECT id FROM users WHERE username = 'admin'"))[0]!.id;
});
afterAll(async () => {
  await s.close();
});
afterEach(async () => {
  expect(await ledgerMismatches(s.db)).toEqual([]);
});

const save = (user: Record<string, unknown>, token = admin) =>
  s.api(endpoints.userAdmin.updateUser, { rawBody: { user }, token });
const list = (body: Record<string, unknown> = {}, token = admin) =>
  s.api(endpoints.userAdmin.getUser, { body: body, token });
const del = (id: string, token = admin) => s.api(endpoints.userAdmin.deleteUser, { body: { id }, token });
const userRow = async (id: string) =>
  (
    await s.db.query<{ status: string; balance: string; roles: string[]; username: string }>(
      'SELECT status, balance::text AS balance, roles, username FROM users WHERE id = $1',
      [id],
    )
  )[0];
const ledgerOf = (id: string) =>
  s.db.query<{ amount: string; kind: string; actor_id: string | null; ref: string | null }>(
    'SELECT amount::text AS amount, kind, actor_id, ref FROM ledger WHERE user_id = $1 ORDER BY id',
    [id],
  );
const auditOf = (targetId: string) =>
  s.db.query<{ kind: string; actor_name: string; before: unknown; after: unknown }>(
    'SELECT kind, actor_name, before, after FROM audit_log WHERE target_id = $1 ORDER BY id',
    [targetId],
  );
const newUser = (username: string, extra: Record<string, unknown> = {}) =>
  save({ username, email: `${username}@example.com`, password: 'password-123', roles: ['User'], ...extra });

describe('User Manager API: add and edit', () => {
  it('adds a user with several roles and a starting balance booked as an admin adjustment', async () => {
    const res = await newUser('carol', { roles: ['Staff', 'SMS'], balance: 12.5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code: 1,
      user: { username: 'carol', roles: ['Staff', 'SMS'], status: 'Active', balance: 12.5 },
    });
    const id = res.body.user.id as string;
    const ledger = await ledgerOf(id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ amount: '12.50', kind: 'admin_adjustment', actor_id: adminId });
    expect((await auditOf(id)).map((a) => a.kind)).toEqual(['user.create', 'user.balance']);
    // The new user can sign in with the password the admin set.
    await expect(s.login('carol', 'password-123')).resolves.toBeTypeOf('string');
  });

  it.each([
    [{ roles: ['Root'] }, 'roles', ruleMessages.invalidRoles],
    [{ roles: ['User', 'Admin9', 'x'] }, 'roles', ruleMessages.invalidRoles],
    [{ roles: [] }, 'roles', ruleMessages.rolesRequired],
    [{ email: 'not-an-email' }, 'email', ruleMessages.invalidEmail],
    [{ username: '' }, 'username', ruleMessages.usernameRequired],
    [{ password: '' }, 'password', ruleMessages.passwordRequired],
    [{ balance: -1 }, 'balance', ruleMessages.balanceInvalid],
    [{ balance: '1.23456' }, 'balance', ruleMessages.balanceInvalid],
    [{ balance: 'lots' }, 'balance', ruleMessages.balanceInvalid],
  ])('refuses a new user with %j and changes nothing', async (patch, field, msg) => {
    const before = (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0]!.n;
    const res = await newUser('dave', patch);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 0, error: 'bad_input', field, msg });
    expect((await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0]!.n).toBe(before);
  });

  it('refuses over-long strings and non-number balances at the schema', async () => {
    expect((await newUser('x'.repeat(65))).status).toBe(400);
    expect((await newUser('eve', { balance: { $gt: 0 } })).status).toBe(400);
    expect((await newUser('eve', { roles: Array(9).fill('User') })).status).toBe(400);
  });

  it('edits roles, status and balance: the difference is one ledger entry with who made it', async () => {
    const u = await s.createUser({ username: 'frank', balance: 10 });
    const res = await save({
      id: u.id,
      username: 'frank',
      email: 'frank@example.com',
      roles: ['User', 'SMS'],
      balance: '25.75',
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ roles: ['User', 'SMS'], balance: 25.75 });
    let ledger = await ledgerOf(u.id);
    expect(ledger.map((l) => [l.amount, l.kind])).toEqual([
      ['10.00', 'topup'],
      ['15.75', 'admin_adjustment'],
    ]);
    expect(ledger[1]!.actor_id).toBe(adminId);
    // Lowering is a negative adjustment, exact to the cent (no float artefacts).
    await save({ id: u.id, username: 'frank', email: 'frank@example.com', roles: ['User'], balance: 0.1 });
    ledger = await ledgerOf(u.id);
    expect(ledger.at(-1)).toMatchObject({ amount: '-25.65', kind: 'admin_adjustment' });
    expect((await userRow(u.id))!.balance).toBe('0.10');
    // Unchanged balance: no ledger row.
    await save({ id: u.id, username: 'frank', email: 'frank@example.com', roles: ['User'], balance: '0.10' });
    expect(await ledgerOf(u.id)).toHaveLength(3);
    expect((await auditOf(u.id)).map((a) => a.kind)).toEqual([
      'user.balance',
      'user.update',
      'user.balance',
      'user.update',
      'user.update',
    ]);
    const upd = (await auditOf(u.id)).find((a) => a.kind === 'user.update')!;
    expect(upd.actor_name).toBe('admin');
    expect(upd.before).toMatchObject({ roles: ['User'], balance: '10.00' });
    expect(upd.after).toMatchObject({ roles: ['User', 'SMS'], balance: '25.75' });
  });

  it('refuses bad edits with the right status and changes nothing', async () => {
    const a = await s.createUser({ username: 'gina', balance: 5 });
    await s.createUser({ username: 'hank' });
    const base = { id: a.id, username: 'gina', email: 'gina@example.com', roles: ['User'] };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...base, username: 'hank' }, 409, 'username_taken'],
      [{ ...base, email: 'hank@example.com' }, 409, 'email_taken'],
      [{ ...base, id: '00000000-0000-4000-8000-000000000000' }, 404, 'user_not_found'],
      [{ ...base, id: 'nope' }, 404, 'user_not_found'],
      [{ ...base, balance: -3 }, 400, 'bad_input'],
      [{ ...base, balance: 1.00001 }, 400, 'bad_input'],
      [{ ...base, roles: ['Boss'] }, 400, 'bad_input'],
    ];
    for (const [body, status, error] of cases) {
      const res = await save(body);
      expect([res.status, res.body.error]).toEqual([status, error]);
    }
    expect(await userRow(a.id)).toMatchObject({
      username: 'gina',
      balance: '5.00',
      roles: ['User'],
      status: 'Active',
    });
    expect(await ledgerOf(a.id)).toHaveLength(1);
    expect(await auditOf(a.id)).toEqual([]);
  });

  it('a deactivated user loses access at once', async () => {
    const u = await s.createUser({ username: 'ivan' });
    expect((await s.api(endpoints.user.info, { token: u.token })).status).toBe(200);
    const res = await save({
      id: u.id,
      username: 'ivan',
      email: 'ivan@example.com',
      roles: ['User'],
      status: 'Inactive',
    });
    expect(res.status).toBe(200);
    expect((await s.api(endpoints.user.info, { token: u.token })).status).toBe(401);
    // Reactivated: the old token stays dead (token version bumped), a new sign-in works.
    await save({ id: u.id, username: 'ivan', email: 'ivan@example.com', roles: ['User'], status: 'Active' });
    expect((await s.api(endpoints.user.info, { token: u.token })).status).toBe(401);
    const fresh = await s.login('ivan', u.password);
    expect((await s.api(endpoints.user.info, { token: fresh })).status).toBe(200);
  });
});

describe('User Manager API: list', () => {
  it('searches, sorts and pages on the server, with real figures', async () => {
    for (let i = 0; i < 3; i++) await s.createUser({ username: `zz_page${i}`, balance: i + 1 });
    const res = await list({ search: 'zz_page', sort: 'balance', dir: 'desc', pageSize: 50 });
    expect(res.status).toBe(200);
    expect(res.body.users.map((u: { username: string }) => u.username)).toEqual([
      'zz_page2',
      'zz_page1',
      'zz_page0',
    ]);
    expect(res.body).toMatchObject({ total: 3, page: 1, totalPages: 1 });
    const all = await list();
    const counts = (
      await s.db.query<{ n: number; active: number; held: string }>(
        "SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'Active')::int AS active, sum(balance)::text AS held FROM users",
      )
    )[0]!;
    expect(all.body.stats).toMatchObject({
      totalUsers: counts.n,
      activeUsers: counts.active,
      totalBalance: Number(counts.held),
    });
    expect(all.body.stats.newUsers7d).toBe(counts.n);
    // Search treats % and _ literally.
    expect((await list({ search: '%' })).body.total).toBe(0);
    // Page 2 of 1-per-page is not a page size; sizes are 50, 100, 200, 500.
    expect((await list({ pageSize: 1 })).status).toBe(400);
    expect((await list({ search: 'zz_page', page: 2 })).body.users).toEqual([]);
    expect((await list({ search: 'x'.repeat(101) })).status).toBe(400);
  });
});

describe('User Manager API: delete', () => {
  it('erases a user without history and deactivates one with a balance or orders', async () => {
    const clean = await s.createUser({ username: 'jill' });
    const rich = await s.createUser({ username: 'kurt', balance: 3 });
    const r1 = await del(clean.id);
    expect(r1.body).toMatchObject({ code: 1, outcome: 'deleted' });
    expect(await userRow(clean.id)).toBeUndefined();
    expect((await auditOf(clean.id)).map((a) => a.kind)).toEqual(['user.delete']);

    const r2 = await del(rich.id);
    expect(r2.body).toMatchObject({ code: 1, outcome: 'deactivated' });
    expect(await userRow(rich.id)).toMatchObject({ status: 'Inactive', balance: '3.00' });
    expect((await s.api(endpoints.user.info, { token: rich.token })).status).toBe(401);
    expect((await auditOf(rich.id)).map((a) => a.kind)).toEqual(['user.deactivate']);

    // Money history without a balance: still kept (deactivated).
    const spent = await s.createUser({ username: 'lena', balance: 2 });
    await save({ id: spent.id, username: 'lena', email: 'lena@example.com', roles: ['User'], balance: 0 });
    expect((await del(spent.id)).body.outcome).toBe('deactivated');

    expect((await del('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('deactivates a user who has orders (asked through the rental module)', async () => {
    const u = await s.createUser({ username: 'mona' });
    const [svc] = await s.db.query<{ id: string }>(
      `INSERT INTO services (name, code, price, pattern, text_contains) VALUES ('M', 'mona_svc', 1, '\\d+', 'M') RETURNING id`,
    );
    await s.db.query(
      `INSERT INTO orders (user_id, service_id, gateway_name, port, phone_number, price, status, created_at,
                           expires_at, service_code, service_name)
       VALUES ($1, $2, 'gw', '1.01', '15550001111', 0, 'CANCEL', now(), now(), 'mona_svc', 'M')`,
      [u.id, svc!.id],
    );
    expect((await del(u.id)).body.outcome).toBe('deactivated');
  });
});

describe('guard rails', () => {
  const adminEmail = async () =>
    (await s.db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [adminId]))[0]!.email;
  const activeAdmins = async () =>
    (
      await s.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM users WHERE 'Admin9' = ANY(roles) AND status = 'Active'",
      )
    )[0]!.n;
  /** Back to one admin, "admin", with a fresh token. */
  async function restoreAdmin() {
    await s.db.query(`UPDATE users SET roles = ARRAY['User'] WHERE id <> $1 AND 'Admin9' = ANY(roles)`, [
      adminId,
    ]);
    await s.db.query(`UPDATE users SET roles = ARRAY['Admin9'], status = 'Active' WHERE id = $1`, [adminId]);
    admin = await s.adminToken();
  }

  it('an admin cannot delete or deactivate themselves or drop their own Admin9 role', async () => {
    const me = { id: adminId, username: 'admin', email: await adminEmail(), roles: ['Admin9'] };
    const own = await del(adminId);
    expect([own.status, own.body.error]).toEqual([409, 'self_protected']);
    expect(own.body.msg).toBe('You cannot delete your own account.');
    expect((await save({ ...me, status: 'Inactive' })).body.error).toBe('self_protected');
    const r = await save({ ...me, roles: ['User'] });
    expect([r.status, r.body.error]).toEqual([409, 'self_protected']);
    expect(await userRow(adminId)).toMatchObject({ status: 'Active', roles: ['Admin9'] });
    expect(await auditOf(adminId)).toEqual([]);
    // Adding a role to oneself is fine, and the session goes on.
    expect((await save({ ...me, roles: ['Admin9', 'Staff'] })).status).toBe(200);
    expect((await save(me)).status).toBe(200);
  });

  it('refuses to remove the last active Admin9 (the caller lost the role meanwhile)', async () => {
    const b = await s.createUser({ username: 'boss3', roles: ['Admin9'] });
    // "admin" is demoted by a concurrent change after its request passed the door.
    await s.db.query(`UPDATE users SET roles = ARRAY['User'] WHERE id = $1`, [adminId]);
    const actor = { id: adminId, username: 'admin' };
    await expect(removeUser(s.ctx, actor, b.id)).rejects.toMatchObject({ code: 'last_admin' });
    await expect(
      saveUser(s.ctx, actor, { id: b.id, username: 'boss3', email: 'boss3@example.com', roles: ['Staff'] }),
    ).rejects.toMatchObject({ code: 'last_admin' });
    await expect(
      saveUser(s.ctx, actor, {
        id: b.id,
        username: 'boss3',
        email: 'boss3@example.com',
        roles: ['Admin9'],
        status: 'Inactive',
      }),
    ).rejects.toMatchObject({ code: 'last_admin' });
    expect(await activeAdmins()).toBe(1);
    await restoreAdmin();
  });

  it('keeps one active Admin9 when two admins demote each other at the same time', async () => {
    const b = await s.createUser({ username: 'boss2', roles: ['Admin9'] });
    expect(await activeAdmins()).toBe(2);
    const email = await adminEmail();
    const [r1, r2] = await Promise.all([
      save({ id: b.id, username: 'boss2', email: 'boss2@example.com', roles: ['User'] }, admin),
      save({ id: adminId, username: 'admin', email, roles: ['User'] }, b.token),
    ]);
    const statuses = [r1.status, r2.status].sort();
    // One wins; the other is refused: last admin (409), or at the door when the winner's change
    // already took the caller's role (403) or ended its session (401).
    expect(statuses[0]).toBe(200);
    expect([401, 403, 409]).toContain(statuses[1]);
    expect(await activeAdmins()).toBe(1);
    await restoreAdmin();
  });
});

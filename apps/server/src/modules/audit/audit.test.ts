import { endpoints } from '@simdock/contract';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.ts';
import { serverWithAdmin } from '../../test/suites.ts';

// Admin actions of other modules (services, gateways, users) leave audit rows written in the
// action's transaction; Admin9 reads them with filters and paging.

let s: TestServer;
let admin: string;
serverWithAdmin((t) => {
  ({ s, admin } = t);
});

const audit = (body: Record<string, unknown> = {}, token = admin) =>
  s.api(endpoints.audit.list, { body: body, token });

describe('audit log', () => {
  it('records service saves and deletes with who, before and after', async () => {
    const created = await s.api(endpoints.service.update, {
      body: { name: 'Tele', code: 'tele', price: 1 },
      token: admin,
    });
    expect(created.status).toBe(200);
    await s.api(endpoints.service.update, {
      body: { id: created.body.id, name: 'Telegram', code: 'tele', price: 2 },
      token: admin,
    });
    await s.api(endpoints.service.delete, { body: { service: created.body.id }, token: admin });
    const res = await audit({ kind: 'service.update' });
    expect(res.status).toBe(200);
    expect(res.body.entries).toHaveLength(1);
    expect(res.body.entries[0]).toMatchObject({
      actorName: 'admin',
      kind: 'service.update',
      targetId: created.body.id,
      targetLabel: 'tele',
      before: { name: 'Tele', price: 1 },
      after: { name: 'Telegram', price: 2 },
    });
    const all = await audit();
    expect(all.body.entries.map((e: { kind: string }) => e.kind)).toEqual([
      'service.delete',
      'service.update',
      'service.create',
    ]);
  });

  it('a refused action leaves no audit row', async () => {
    const before = (await audit()).body.total;
    const dup = await s.api(endpoints.service.update, {
      body: { name: 'A', code: 'dupe', price: 1 },
      token: admin,
    });
    expect(dup.status).toBe(200);
    expect(
      (await s.api(endpoints.service.update, { body: { name: 'B', code: 'dupe', price: 1 }, token: admin }))
        .status,
    ).toBe(409);
    expect((await audit()).body.total).toBe(before + 1);
  });

  it('records gateway saves (never the password) and deletes', async () => {
    const gw = {
      name: 'GW One',
      url: 'http://127.0.0.1:9',
      mac: 'aa:bb:cc:dd:ee:01',
      userName: 'root',
      password: 'secret-pass',
      isEnable: true,
    };
    const res = await s.api(endpoints.gateway.update, { body: { gateway: gw }, token: admin });
    expect(res.status).toBe(200);
    await s.api(endpoints.gateway.update, {
      body: { gateway: { ...gw, id: res.body.id, name: 'GW 1', password: 'new-pass-1' } },
      token: admin,
    });
    await s.api(endpoints.gateway.delete, { body: { id: res.body.id }, token: admin });
    const rows = (await audit({ actor: 'admin' })).body.entries.filter((e: { kind: string }) =>
      e.kind.startsWith('gateway.'),
    );
    expect(rows.map((e: { kind: string }) => e.kind)).toEqual([
      'gateway.delete',
      'gateway.update',
      'gateway.create',
    ]);
    expect(rows[1]).toMatchObject({
      before: { name: 'GW One' },
      after: { name: 'GW 1', passwordChanged: true },
    });
    expect(JSON.stringify(rows)).not.toMatch(/secret-pass|new-pass-1/);
  });

  it('filters by who, kind and date range, and pages', async () => {
    const other = await s.createUser({ username: 'auditor2', roles: ['Admin9'] });
    await s.api(endpoints.service.update, {
      body: { name: 'X', code: 'by_other', price: 1 },
      token: other.token,
    });
    const mine = await audit({ actor: 'auditor2' });
    expect(mine.body.entries.map((e: { targetLabel: string }) => e.targetLabel)).toEqual(['by_other']);
    const today = s.clock.now().toISOString().slice(0, 10);
    expect((await audit({ from: today, to: today })).body.total).toBeGreaterThan(3);
    expect((await audit({ to: '2000-01-01' })).body.total).toBe(0);
    expect((await audit({ from: 'yesterday-ish' })).status).toBe(400);
    expect((await audit({ kind: 'nonsense' })).status).toBe(400);
    const p1 = await audit({ pageSize: 2, page: 1 });
    const p2 = await audit({ pageSize: 2, page: 2 });
    expect(p1.body.entries).toHaveLength(2);
    expect(p1.body.totalPages).toBe(Math.ceil(p1.body.total / 2));
    expect(p2.body.entries[0]!.id).not.toBe(p1.body.entries[0]!.id);
  });

  it('is for Admin9 only', async () => {
    const u = await s.createUser();
    expect((await audit({}, u.token)).status).toBe(403);
    expect((await s.api(endpoints.audit.list)).status).toBe(401);
  });
});

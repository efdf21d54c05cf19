import { type EndpointDeclaration, endpoints, ruleMessages } from '@simdock/contract';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../test/harness.ts';
import { serverWithAdmin } from '../test/suites.ts';

// Input the contract must refuse with a 400 and a clear message: never a 500, never a change.
let s: TestServer;
let admin: string;
serverWithAdmin((t) => {
  ({ s, admin } = t);
});

const count = async (table: string) =>
  (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

describe('one unauthenticated request cannot freeze the server', () => {
  it('answers a crafted email quickly with a 400 while /healthz stays responsive', async () => {
    const email = `a@${'.'.repeat(80_000)}@`;
    const t0 = performance.now();
    const [res, health] = await Promise.all([
      s.api(endpoints.auth.register, { body: { username: 'crafted', email, passwordHash: 'password-123' } }),
      s.call('GET', '/healthz'),
    ]);
    const elapsed = performance.now() - t0;
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 0,
      error: 'bad_input',
      field: 'email',
      msg: ruleMessages.emailInvalid,
    });
    expect(health.status).toBe(200);
    // The defect was a multi-second freeze of the event loop.
    // (bound generous enough for a loaded 2-core CI machine; the freeze was 7-10 s).
    expect(elapsed).toBeLessThan(1500);
    // Within the length bound the rule itself is linear too.
    const t1 = performance.now();
    const bounded = await s.api(endpoints.auth.register, {
      body: {
        username: 'crafted',
        email: `a@${'.'.repeat(250)}@`,
        passwordHash: 'password-123',
      },
    });
    expect(bounded.status).toBe(400);
    expect(performance.now() - t1).toBeLessThan(1500);
  });
});

describe('text fields', () => {
  it.each([
    [
      'register username',
      endpoints.auth.register,
      { username: 'a\u0000b', email: 'a@b.co', passwordHash: 'password-1' },
    ],
    [
      'register email',
      endpoints.auth.register,
      { username: 'nulmail', email: 'a\u0000@b.co', passwordHash: 'password-1' },
    ],
    [
      'register password',
      endpoints.auth.register,
      { username: 'nulpass', email: 'n@b.co', passwordHash: 'pass\u0000word-1' },
    ],
    ['login username', endpoints.auth.login, { username: 'ad\u0000min', password: 'admin-password-1' }],
    ['login password', endpoints.auth.login, { username: 'admin', password: 'x\u0000' }],
  ])('refuses NUL in the %s with a 400', async (_name, endpoint, body) => {
    const users = await count('users');
    const res = await s.api(endpoint, { rawBody: body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 0, error: 'bad_input' });
    expect(res.body.msg).toMatch(/NUL|invalid|must be/);
    expect(await count('users')).toBe(users);
  });

  it('refuses a 9,000-character login username with a 400, not a 500', async () => {
    const res = await s.api(endpoints.auth.login, {
      body: { username: 'u'.repeat(9000), password: 'whatever-1' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'username', msg: 'Username must be at most 64 characters.' });
  });

  it('keeps the spec message for a too-long username and refuses a huge password', async () => {
    const long = await s.api(endpoints.auth.register, {
      body: {
        username: 'u'.repeat(5000),
        email: 'l@b.co',
        passwordHash: 'p'.repeat(10),
      },
    });
    expect(long.body).toMatchObject({ field: 'username', msg: ruleMessages.usernameFormat });
    const pw = await s.api(endpoints.auth.register, {
      body: {
        username: 'bigpw',
        email: 'bigpw@b.co',
        passwordHash: 'p'.repeat(100_000),
      },
    });
    expect(pw.status).toBe(400);
    expect(pw.body).toMatchObject({ field: 'passwordHash', msg: ruleMessages.passwordTooLong });
  });

  it('refuses NUL in orders, services, gateways and admin filters', async () => {
    const u = await s.createUser({ balance: 10 });
    const services = await count('services');
    const gateways = await count('gateways');
    const cases: [EndpointDeclaration, unknown, string][] = [
      [endpoints.order.create, { serviceCode: 'tg\u0000' }, u.token],
      [endpoints.order.cancel, { orderId: '1\u0000' }, u.token],
      [endpoints.service.update, { name: 'N\u0000', code: 'nul', price: 1 }, admin],
      [endpoints.service.update, { name: 'N', code: 'nul', price: 1, description: 'd\u0000' }, admin],
      [endpoints.service.update, { name: 'N', code: 'nul', price: 1, textContains: '\u0000' }, admin],
      [endpoints.service.delete, { service: 'x\u0000' }, admin],
      [
        endpoints.gateway.update,
        {
          gateway: {
            name: 'g\u0000',
            url: 'http://10.0.0.1',
            mac: '00:11:22:33:44:55',
            userName: 'r',
            password: 'p',
          },
        },
        admin,
      ],
      [endpoints.order.deviceStats, { mac: '00\u0000' }, admin],
      [endpoints.gateway.scan, { id: '\u0000' }, admin],
    ];
    for (const [endpoint, body, token] of cases) {
      const res = await s.api(endpoint, { rawBody: body, token });
      expect(res.status, `${endpoint.path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.msg).toMatch(/NUL/);
    }
    for (const query of [
      { status: '\u0000' },
      { gateway: 'a\u0000b' },
      { phoneNumber: '\u0000' },
      { gateway: 'g'.repeat(500) },
      { page: '1e308' },
    ]) {
      const res = await s.api(endpoints.order.adminOrders, { query, token: admin });
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
    expect(
      (await s.api(endpoints.gateway.inbox, { query: { page: '99999999999' }, token: admin })).status,
    ).toBe(400);
    expect(await count('services')).toBe(services);
    expect(await count('gateways')).toBe(gateways);
    expect(s.logs.some((l) => l.includes('"level":50'))).toBe(false);
  });
});

describe('service numbers', () => {
  const base = { name: 'Numbers', code: 'numbers' };

  it.each([
    [{ price: 1e12 }, 'price', ruleMessages.priceTooHigh],
    [{ price: '1000000.01' }, 'price', ruleMessages.priceTooHigh],
    [{ price: 1, stock: 2 ** 31 }, 'stock', ruleMessages.stockTooHigh],
    [{ price: 1, rentTimeMinutes: 2 ** 31 }, 'rentTimeMinutes', ruleMessages.rentTimeTooHigh],
    [{ price: '0x10' }, 'price', 'Price must be a plain number, such as 12.5.'],
    [{ price: [5] }, 'price', 'Price must be a plain number, such as 12.5.'],
    [{ price: { v: 5 } }, 'price', 'Price must be a plain number, such as 12.5.'],
    [{ price: '1e400' }, 'price', 'Price must be a plain number, such as 12.5.'],
    [{ price: 1, stock: '1e3' }, 'stock', 'Stock must be a plain number, such as 12.5.'],
    [
      { price: 1, rentTimeMinutes: true },
      'rentTimeMinutes',
      'Rent time must be a plain number, such as 12.5.',
    ],
  ])('refuses %j with a 400 and stores nothing', async (nums, field, msg) => {
    const before = await count('services');
    const res = await s.api(endpoints.service.update, { body: { ...base, ...nums }, token: admin });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 0, error: 'bad_input', field, msg });
    expect(await count('services')).toBe(before);
  });

  it('still coerces plain decimal strings and empty strings (docs/product.md#forms)', async () => {
    const res = await s.api(endpoints.service.update, {
      body: { ...base, code: 'coerced', price: '12.5', stock: '', rentTimeMinutes: '30' },
      token: admin,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ price: 12.5, stock: 0, rentTimeMinutes: 30 });
    const top = await s.api(endpoints.service.update, {
      body: { ...base, code: 'topvalues', price: 1_000_000, stock: 1_000_000, rentTimeMinutes: 525_600 },
      token: admin,
    });
    expect(top.status).toBe(200);
  });

  it('refuses over-long service text with a sentence naming the field', async () => {
    const res = await s.api(endpoints.service.update, {
      body: { ...base, name: 'n'.repeat(101), price: 1 },
      token: admin,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'name', msg: 'Name must be at most 100 characters.' });
  });
});

import { endpoints, ruleMessages } from '@simdock/contract';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.ts';
import { serverWithAdmin } from '../../test/suites.ts';

let s: TestServer;
let admin: string;
serverWithAdmin((t) => {
  ({ s, admin } = t);
});

const save = (body: Record<string, unknown>, token = admin) =>
  s.api(endpoints.service.update, { rawBody: body, token });

describe('service manager API', () => {
  it('adds with the spec defaults, trims text and coerces numbers', async () => {
    const res = await save({ name: '  Telegram ', code: ' tg ', price: '1.5', textContains: ' Telegram ' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Telegram',
      code: 'tg',
      price: 1.5,
      rentTimeMinutes: 20,
      pattern: '\\d{4,8}',
      textContains: 'Telegram',
      isRepeatable: false,
      available: 0,
    });
  });

  it.each([
    [{ name: '', code: 'a1', price: 1 }, 'name', ruleMessages.nameRequired],
    [{ name: 'A', code: ' ', price: 1 }, 'code', ruleMessages.codeRequired],
    [{ name: 'A', code: 'a2', price: 0 }, 'price', ruleMessages.priceInvalid],
    [{ name: 'A', code: 'a3', price: 'abc' }, 'price', ruleMessages.priceInvalid],
    [{ name: 'A', code: 'a4', price: 1, stock: -1 }, 'stock', ruleMessages.stockInvalid],
    [
      { name: 'A', code: 'a5', price: 1, rentTimeMinutes: -5 },
      'rentTimeMinutes',
      ruleMessages.rentTimeInvalid,
    ],
    [{ name: 'A', code: 'a8', price: 0.555 }, 'price', ruleMessages.priceDecimals],
    [{ name: 'A', code: 'a9', price: '1.005' }, 'price', ruleMessages.priceDecimals],
    [{ name: 'A', code: 'a6', price: 1, pattern: '(\\d+' }, 'pattern', /not a valid regular expression/],
    [{ name: 'A', code: 'a7', price: 1, pattern: '(\\d)\\1' }, 'pattern', /not a valid regular expression/],
  ])('refuses %j', async (body, field, msg) => {
    const res = await save(body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(res.body.msg).toMatch(msg);
  });

  it('takes the prices operators use, exactly (0.55 read as a float is not 55 cents × 100)', async () => {
    for (const [i, price] of [0.55, 1.15, 2.3, 4.35, 19.99, 0.29, '0.55', '19.99'].entries()) {
      const res = await save({ name: `P${i}`, code: `p${i}`, price });
      expect(res.status, String(price)).toBe(200);
      expect(res.body.price).toBe(Number(price));
    }
    const rows = await s.db.query<{ price: string }>(
      `SELECT price::text AS price FROM services WHERE code = 'p0'`,
    );
    expect(rows[0]!.price).toBe('0.55');
  });

  it('edits, refuses a duplicate code, and deletes', async () => {
    const a = (await save({ name: 'WhatsApp', code: 'wa', price: 2 })).body;
    const b = (await save({ name: 'Google', code: 'go', price: 1 })).body;
    const dup = await save({ id: b.id, name: 'Google', code: 'wa', price: 1 });
    expect(dup.status).toBe(409);
    const edited = await save({
      id: a.id,
      name: 'WhatsApp Business',
      code: 'wa',
      price: 2.5,
      isRepeatable: true,
    });
    expect(edited.body).toMatchObject({
      id: a.id,
      name: 'WhatsApp Business',
      price: 2.5,
      isRepeatable: true,
    });
    const del = await s.api(endpoints.service.delete, { body: { service: b.id }, token: admin });
    expect(del.body).toEqual({ code: 1, msg: 'Service deleted.' });
    const list = (await s.api(endpoints.service.getAll, { token: admin })).body.services as Array<{
      code: string;
    }>;
    expect(list.map((x) => x.code)).not.toContain('go');
    expect((await s.api(endpoints.service.delete, { body: { service: b.id }, token: admin })).status).toBe(
      404,
    );
  });

  it('is for admins only', async () => {
    const u = await s.createUser();
    expect((await save({ name: 'X', code: 'x', price: 1 }, u.token)).status).toBe(403);
    expect((await s.api(endpoints.service.delete, { body: { service: 'x' }, token: u.token })).status).toBe(
      403,
    );
  });
});

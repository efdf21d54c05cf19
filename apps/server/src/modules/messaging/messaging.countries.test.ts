import { amountText, endpoints } from '@simdock/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerMismatches, userWithApiKey } from '../../test/fixtures.ts';
import type { TestServer } from '../../test/harness.ts';
import { serverWithAdmin } from '../../test/suites.ts';

// Message prices by destination country on a real server (both databases): a listed country's
// price charged exactly, the default for the others, refusals of countries not enabled (nothing
// charged or queued), new prices for new sends only, and the admin routes.

let s: TestServer;
let admin: string;
serverWithAdmin((t) => {
  ({ s, admin } = t);
});

// Numbers are 1 + 10 digits: the destinations are the North American numbering plan's countries.
let seq = 0;
const us = () => `1202555${String(1000 + ++seq).slice(-4)}`;
const ca = () => `1416555${String(1000 + ++seq).slice(-4)}`;
const jm = () => `1876555${String(1000 + ++seq).slice(-4)}`;

const setCountry = (body: Record<string, unknown>, token = admin) =>
  s.api(endpoints.catalogue.setMessageCountry, { rawBody: body, token });
const send = (token: string, to: string[], mess = 'Hello there') =>
  s.api(endpoints.outreach.sendMassSms, { body: { number: to.join('\n'), mess }, token });
const balanceOf = async (userId: string) =>
  amountText(
    (await s.db.query<{ b: string }>('SELECT balance::text AS b FROM users WHERE id = $1', [userId]))[0]!.b,
  );
const messageCosts = (campaignId: string) =>
  s.db.query<{ recipient: string; cost: string }>(
    'SELECT recipient, cost::text AS cost FROM messages WHERE campaign_id = $1::bigint ORDER BY id',
    [campaignId],
  );
const queuedOf = async (userId: string) =>
  (await s.db.query('SELECT 1 FROM messages WHERE user_id = $1', [userId])).length;

beforeAll(async () => {
  const res = await s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000, SmsPricePerSegment: '0.0075', MmsPrice: '0.02' },
    token: admin,
  });
  expect(res.status).toBe(200);
});

afterEach(async () => {
  const now = (await s.api(endpoints.catalogue.messageCountries, { token: admin })).body;
  for (const c of now.countries) await setCountry({ country: c.country, remove: true });
  await setCountry({ otherCountriesEnabled: true });
  expect(await ledgerMismatches(s.db)).toEqual([]);
});

describe('message prices by country', () => {
  it('charge a listed country at its price per segment, exactly, and the others at the default', async () => {
    expect((await setCountry({ country: 'ca', smsPricePerSegment: '0.0913' })).status).toBe(200);
    const u = await s.createUser({ balance: 1 });
    // CA: 0.0913 + 2 segments × 0.0913; US: 0.0075.
    const res = await send(u.token, [ca(), us(), ca()], `Hi\n${'x'.repeat(10)}\n${'Ж'.repeat(71)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ queued: 3, cost: 0.2814, balance: 0.7186 });
    const costs = await messageCosts(res.body.data!.campaignId as string);
    expect(costs.map((c) => c.cost)).toEqual(['0.0913', '0.0075', '0.1826']);
    expect(await balanceOf(u.id)).toBe('0.7186');
    // The page reads the same table.
    const settings = (await s.api(endpoints.outreach.getSettings, { token: u.token })).body;
    expect(settings).toMatchObject({
      otherCountriesEnabled: true,
      countries: [
        { country: 'CA', name: 'Canada', smsPricePerSegment: 0.0913, mmsPrice: null, enabled: true },
      ],
    });
  });

  it('refuse the whole send when a recipient’s country is not enabled: nothing charged or queued', async () => {
    await setCountry({ country: 'CA', enabled: false });
    const u = await s.createUser({ balance: 1 });
    const res = await send(u.token, [us(), ca(), ca(), ca()]);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 0, error: 'country_not_enabled' });
    expect(res.body.msg).toBe(
      'Messages to Canada (CA) are not enabled; remove those 3 numbers or ask the operator.',
    );
    expect(await queuedOf(u.id)).toBe(0);
    expect(await balanceOf(u.id)).toBe('1.00');
    // The API refuses the same way.
    const p = await userWithApiKey(s, 1);
    const api = await fetch(`${s.url}/api/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: [ca()], text: 'Hello' }),
    });
    expect(api.status).toBe(409);
    expect(await api.json()).toMatchObject({
      error: 'country_not_enabled',
      msg: 'Messages to Canada (CA) are not enabled; remove that number or ask the operator.',
    });
    expect(await queuedOf(p.id)).toBe(0);
    // Without those numbers the send goes.
    expect((await send(u.token, [us()])).status).toBe(200);
  });

  it('refuse countries not listed when the operator allows only the listed ones', async () => {
    await setCountry({ otherCountriesEnabled: false });
    await setCountry({ country: 'US', enabled: true });
    const u = await s.createUser({ balance: 1 });
    const res = await send(u.token, [us(), ca(), jm(), jm()]);
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe(
      'Messages to Jamaica (JM) and Canada (CA) are not enabled; remove those 3 numbers or ask the operator.',
    );
    expect(await queuedOf(u.id)).toBe(0);
    const ok = await send(u.token, [us()]);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ cost: 0.0075 });
  });

  it('apply a change of price to new sends only', async () => {
    await setCountry({ country: 'CA', smsPricePerSegment: 0.01 });
    const u = await s.createUser({ balance: 1 });
    const first = await send(u.token, [ca()]);
    await setCountry({ country: 'CA', smsPricePerSegment: '0.0200' });
    const second = await send(u.token, [ca()]);
    expect(first.body.data).toMatchObject({ cost: 0.01 });
    expect(second.body.data).toMatchObject({ cost: 0.02 });
    expect((await messageCosts(first.body.data!.campaignId as string)).map((c) => c.cost)).toEqual([
      '0.0100',
    ]);
    expect(await balanceOf(u.id)).toBe('0.97');
    // Back to the default: null.
    await setCountry({ country: 'CA', smsPricePerSegment: null });
    expect((await send(u.token, [ca()])).body.data).toMatchObject({ cost: 0.0075 });
  });
});

describe('the admin routes', () => {
  it('are audit-logged, refuse bad input with the contract’s messages, and are admin only', async () => {
    const saved = await setCountry({
      country: 'JM',
      smsPricePerSegment: '0.05',
      mmsPrice: '0.3',
      enabled: false,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.countries).toEqual([
      { country: 'JM', name: 'Jamaica', smsPricePerSegment: 0.05, mmsPrice: 0.3, enabled: false },
    ]);
    const [audit] = await s.db.query<{ target_id: string; before: unknown; after: Record<string, unknown> }>(
      `SELECT target_id, before, after FROM audit_log WHERE kind = 'settings.messageCountry' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toMatchObject({ target_id: 'JM', before: null, after: { country: 'JM', enabled: false } });
    await setCountry({ otherCountriesEnabled: false });
    const [other] = await s.db.query<{ after: Record<string, unknown> }>(
      `SELECT after FROM audit_log WHERE kind = 'settings.messageCountry' ORDER BY id DESC LIMIT 1`,
    );
    expect(other!.after).toEqual({ otherCountriesEnabled: false });

    for (const [body, message] of [
      [{ country: 'Germany' }, /two-letter code/],
      [{}, /two-letter code/],
      [{ country: 'DE', smsPricePerSegment: -1 }, /at most 4 decimals/],
      [{ country: 'DE', mmsPrice: '0.00001' }, /at most 4 decimals/],
    ] as const) {
      const res = await setCountry(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).toMatch(message);
    }
    const u = await s.createUser();
    expect((await setCountry({ country: 'DE' }, u.token)).status).toBe(403);
    expect((await s.api(endpoints.catalogue.messageCountries, { token: u.token })).status).toBe(403);
  });
});

import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mode } from './model.ts';
import type { PhoneSimOptions } from './options.ts';
import { PhoneSim } from './phone.ts';
import {
  SmsGateClient as Client,
  fetchClient,
  HttpError,
  ProcessState,
  type Received,
  startReceiver,
  WebHookEventType,
} from './testkit.ts';

const KEY = 'k3yS1gn!';
const SLOTS: PhoneSimOptions['slots'] = [
  { phoneNumber: '+84907654321', iccid: '8984048000001234567', carrierName: 'Viettel' },
  { phoneNumber: '+84912345678', iccid: '8984020000009876543', carrierName: 'Vinaphone' },
];

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
});

async function phone(mode: Mode, extra: Partial<PhoneSimOptions> = {}) {
  const sim = await PhoneSim.start({
    mode,
    username: 'sms',
    password: 'pa55word',
    slots: SLOTS,
    signingKey: KEY,
    seed: 7,
    ...extra,
  });
  cleanup.push(() => sim.stop());
  return { sim, client: new Client('sms', 'pa55word', fetchClient, sim.baseUrl) };
}

async function receiver(statuses: number[] = []) {
  const r = await startReceiver(statuses);
  cleanup.push(r.close);
  return r;
}

/** The check a receiver makes, exactly as the doc describes: HMAC-SHA256(key, raw body + timestamp). */
function verify(key: string, w: Received): boolean {
  const sig = w.headers['x-signature'];
  const ts = w.headers['x-timestamp'];
  if (typeof sig !== 'string' || typeof ts !== 'string') return false;
  const expected = createHmac('sha256', key)
    .update(w.raw + ts)
    .digest();
  const given = Buffer.from(sig, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function expectStatus(p: Promise<unknown>, status: number): Promise<HttpError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  expect((err as HttpError).status).toBe(status);
  return err as HttpError;
}

describe('sending', () => {
  it('accepts a send as Pending and reaches Delivered per recipient', async () => {
    const { sim, client } = await phone('local');
    const accepted = await client.send({
      id: 'sd-0001-a1',
      message: 'Your code is 1234',
      phoneNumbers: ['+84901111111', '+84902222222'],
      simNumber: 2,
    });
    expect(accepted).toMatchObject({ id: 'sd-0001-a1', state: 'Pending', deviceId: sim.deviceId });
    await sim.webhooksSettled();
    const state = await client.getState('sd-0001-a1');
    expect(state.state).toBe(ProcessState.Delivered);
    expect(state.recipients).toEqual([
      { phoneNumber: '+84901111111', state: 'Delivered' },
      { phoneNumber: '+84902222222', state: 'Delivered' },
    ]);
    const states = (state as unknown as { states: Record<string, string> }).states;
    expect(Object.keys(states)).toEqual(['Pending', 'Processed', 'Sent', 'Delivered']);
    expect(states.Pending).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+07:00$/);
    expect(sim.sentMessages()[0]).toMatchObject({ simNumber: 2, text: 'Your code is 1234' });
  });

  it('answers 409 to a repeated message id and 401 to wrong credentials', async () => {
    const { sim, client } = await phone('cloud');
    await client.send({ id: 'dup-1', message: 'a', phoneNumbers: ['+84901111111'] });
    const err = await expectStatus(
      client.send({ id: 'dup-1', message: 'b', phoneNumbers: ['+84901111111'] }),
      409,
    );
    expect(JSON.parse(err.body)).toEqual({ message: 'message with the same ID already exists' });
    expect(sim.sentMessages()).toHaveLength(1);
    const intruder = new Client('sms', 'wrong', fetchClient, sim.baseUrl);
    await expectStatus(intruder.getState('dup-1'), 401);
    await expectStatus(intruder.send({ message: 'x', phoneNumbers: ['+84901111111'] }), 401);
    expect(sim.sentMessages()).toHaveLength(1);
  });

  it('refuses a body with two content forms or a non-E.164 number (400, {message})', async () => {
    const { sim } = await phone('local');
    const auth = `Basic ${Buffer.from('sms:pa55word').toString('base64')}`;
    const post = (body: unknown, q = '') =>
      fetch(`${sim.baseUrl}/messages${q}`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const both = await post({ message: 'a', textMessage: { text: 'a' }, phoneNumbers: ['+84901111111'] });
    expect(both.status).toBe(400);
    expect(typeof ((await both.json()) as { message: unknown }).message).toBe('string');
    expect((await post({ textMessage: { text: 'a' }, phoneNumbers: ['0901111111'] })).status).toBe(400);
    const skipped = await post(
      { textMessage: { text: 'a' }, phoneNumbers: ['0901111111'] },
      '?skipPhoneValidation=true',
    );
    expect(skipped.status).toBe(202);
  });
});

describe('webhooks', () => {
  it('posts a signed sms:received and sms:delivered that verify with the signing key', async () => {
    const { sim, client } = await phone('local');
    const r = await receiver();
    await client.registerWebhook({ id: 'in', event: WebHookEventType.SmsReceived, url: `${r.url}/in` });
    await client.registerWebhook({ id: 'dlr', event: WebHookEventType.SmsDelivered, url: `${r.url}/dlr` });
    expect((await client.getWebhooks()).map((w) => w.id).sort()).toEqual(['dlr', 'in']);

    const messageId = sim.injectSms({ slot: 1, from: '+84901234567', text: 'Hello' });
    await client.send({ id: 'm-1', message: 'Hi back', phoneNumbers: ['+84901234567'] });
    await sim.webhooksSettled();

    const inbound = r.got.find((w) => w.path === '/in');
    const dlr = r.got.find((w) => w.path === '/dlr');
    if (!inbound || !dlr) throw new Error('webhooks missing');
    expect(verify(KEY, inbound)).toBe(true);
    expect(verify(KEY, dlr)).toBe(true);
    expect(inbound.headers['user-agent']).toMatch(/^me\.capcom\.smsgateway\//);
    expect(Math.abs(Number(inbound.headers['x-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    expect(JSON.parse(inbound.raw)).toMatchObject({
      deviceId: sim.deviceId,
      event: 'sms:received',
      webhookId: 'in',
      payload: {
        messageId,
        message: 'Hello',
        sender: '+84901234567',
        recipient: '+84907654321',
        phoneNumber: '+84901234567',
        simNumber: 1,
      },
    });
    expect(JSON.parse(dlr.raw)).toMatchObject({
      event: 'sms:delivered',
      payload: { messageId: 'm-1', sender: '+84907654321', recipient: '+84901234567', simNumber: 1 },
    });
    expect(JSON.parse(dlr.raw).payload.deliveredAt).toMatch(/\.\d{3}\+07:00$/);
  });

  it('a forged signature, a changed body or another key fails the check', async () => {
    const { sim, client } = await phone('local');
    const r = await receiver();
    await client.registerWebhook({ event: WebHookEventType.SmsReceived, url: r.url });
    sim.injectSms({ slot: 2, from: '+84901234567', text: 'Code 9876' });
    await sim.webhooksSettled();
    const w = r.got[0];
    if (!w) throw new Error('no webhook');
    expect(verify(KEY, w)).toBe(true);
    expect(verify('otherkey', w)).toBe(false);
    expect(verify(KEY, { ...w, raw: w.raw.replace('9876', '0000') })).toBe(false);
    expect(verify(KEY, { ...w, headers: { ...w.headers, 'x-signature': 'ab'.repeat(32) } })).toBe(false);
    const ts = Number(w.headers['x-timestamp']);
    expect(verify(KEY, { ...w, headers: { ...w.headers, 'x-timestamp': String(ts + 1) } })).toBe(false);
  });

  it('a failed send raises sms:failed, retried with backoff and fresh signatures until 2xx', async () => {
    const { sim, client } = await phone('local', { retry: { baseMs: 5, count: 5 } });
    const r = await receiver([500, 503]);
    await client.registerWebhook({ event: WebHookEventType.SmsFailed, url: r.url });
    sim.setOutcome(() => ({ failed: 'Send result: RESULT_ERROR_RADIO_OFF (Radio off)' }));
    await client.send({ id: 'f-1', message: 'x', phoneNumbers: ['+84901111111'] });
    await sim.webhooksSettled();
    expect(r.got).toHaveLength(3);
    for (const w of r.got) expect(verify(KEY, w)).toBe(true);
    const bodies = r.got.map((w) => JSON.parse(w.raw));
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    expect(bodies[0].payload).toMatchObject({
      messageId: 'f-1',
      reason: 'Send result: RESULT_ERROR_RADIO_OFF (Radio off)',
    });
    const state = await client.getState('f-1');
    expect(state.state).toBe('Failed');
    expect(state.recipients[0]).toMatchObject({
      state: 'Failed',
      error: expect.stringMatching(/^Send result: /),
    });
    expect(sim.webhookDeliveries()[0]?.attempts.map((a) => a.status)).toEqual([500, 503, 200]);
  });

  it('a send without delivery report stays Sent and posts sms:sent only', async () => {
    const { sim, client } = await phone('local');
    const r = await receiver();
    await client.registerWebhook({ event: WebHookEventType.SmsSent, url: r.url });
    await client.registerWebhook({ event: WebHookEventType.SmsDelivered, url: r.url });
    await client.send({ id: 's-1', message: 'x', phoneNumbers: ['+84901111111'], withDeliveryReport: false });
    await sim.webhooksSettled();
    expect(r.got.map((w) => JSON.parse(w.raw).event)).toEqual(['sms:sent']);
    expect(JSON.parse(r.got[0]?.raw ?? '{}').payload.partsCount).toBe(1);
    expect((await client.getState('s-1')).state).toBe('Sent');
  });

  it('a delivery report that fails after Sent: sms:sent, then sms:failed with the reason; the state ends Failed', async () => {
    const { sim, client } = await phone('local');
    const r = await receiver();
    for (const event of [WebHookEventType.SmsSent, WebHookEventType.SmsDelivered, WebHookEventType.SmsFailed])
      await client.registerWebhook({ event, url: r.url });
    sim.setOutcome(() => ({ failAfterSentMs: 20 }));
    await client.send({ id: 'late-1', message: 'x', phoneNumbers: ['+84901111111'] });
    await sim.webhooksSettled();
    const bodies = r.got.map((w) => JSON.parse(w.raw));
    expect(bodies.map((b) => b.event)).toEqual(['sms:sent', 'sms:failed']);
    expect(bodies[1].payload).toMatchObject({
      messageId: 'late-1',
      reason: expect.stringMatching(/^Delivery report: /),
    });
    const state = await client.getState('late-1');
    expect(state.state).toBe('Failed');
  });

  it('system:ping carries the Local health object', async () => {
    const { sim, client } = await phone('cloud', { allowHttpWebhooks: true });
    const r = await receiver();
    await client.registerWebhook({ event: WebHookEventType.SystemPing, url: r.url });
    sim.pingNow();
    await sim.webhooksSettled();
    const body = JSON.parse(r.got[0]?.raw ?? '{}');
    expect(body.event).toBe('system:ping');
    expect(body.payload.health.status).toBe('pass');
    expect(body.payload.health.checks['battery:level'].observedValue).toBeTypeOf('number');
  });

  it('Cloud refuses a plain-http webhook URL unless the build allows it', async () => {
    const { client } = await phone('cloud');
    await expectStatus(
      client.registerWebhook({ event: WebHookEventType.SmsReceived, url: 'http://127.0.0.1:9/x' }),
      400,
    );
  });
});

describe('devices and modes', () => {
  it('Cloud masks SIM fields to their last 4 characters; Local shows them in full', async () => {
    const cloud = await phone('cloud');
    const [dev] = await cloud.client.getDevices();
    expect(dev?.id).toMatch(/^[\w-]{21}$/);
    expect((dev as unknown as { simCards: unknown[] }).simCards).toEqual([
      {
        slotIndex: 0,
        simNumber: 1,
        phoneNumber: '********4321',
        carrierName: '***ttel',
        iccid: '***************4567',
      },
      {
        slotIndex: 1,
        simNumber: 2,
        phoneNumber: '********5678',
        carrierName: '*****hone',
        iccid: '***************6543',
      },
    ]);

    const local = await phone('local');
    const auth = `Basic ${Buffer.from('sms:pa55word').toString('base64')}`;
    const res = await fetch(`${local.sim.baseUrl}/device`, { headers: { Authorization: auth } });
    const [ldev] = (await res.json()) as { id: string; simCards: unknown[] }[];
    expect(ldev?.id).toMatch(/^[0-9a-f]{32}$/);
    expect(ldev?.simCards[0]).toEqual({
      slotIndex: 0,
      simNumber: 1,
      phoneNumber: '+84907654321',
      carrierName: 'Viettel',
      iccid: '8984048000001234567',
    });
    // Local has only the singular /device.
    await expectStatus(local.client.getDevices(), 404);
  });

  it('a SIM given as a carrier profile reports its number, ICCID and carrier name', async () => {
    const slots: PhoneSimOptions['slots'] = [
      { carrier: 'de-telekom' },
      { carrier: 'gb-ee', carrierName: 'EE UK' },
    ];
    const local = await phone('local', { slots });
    const auth = `Basic ${Buffer.from('sms:pa55word').toString('base64')}`;
    const res = await fetch(`${local.sim.baseUrl}/device`, { headers: { Authorization: auth } });
    const [dev] = (await res.json()) as {
      simCards: { phoneNumber: string; iccid: string; carrierName: string }[];
    }[];
    const [de, gb] = dev!.simCards;
    expect(de).toMatchObject({ carrierName: 'Telekom' });
    expect(de!.phoneNumber).toMatch(/^\+491[5-7]\d{8,9}$/);
    expect(de!.iccid).toMatch(/^894901\d{13}$/);
    expect(gb).toMatchObject({ carrierName: 'EE UK' });
    expect(gb!.phoneNumber).toMatch(/^\+447\d{9}$/);
    expect(gb!.iccid).toMatch(/^894430\d{13}$/);
    // Same seed, same SIMs.
    const again = await phone('local', { slots });
    const [dev2] = (await (
      await fetch(`${again.sim.baseUrl}/device`, { headers: { Authorization: auth } })
    ).json()) as { simCards: unknown[] }[];
    expect(dev2!.simCards).toEqual(dev!.simCards);
  });

  it('Private serves under /api/3rdparty/v1 and health needs no credentials', async () => {
    const { sim, client } = await phone('private');
    expect(sim.baseUrl).toBe(`${sim.url}/api/3rdparty/v1`);
    const anon = new Client('x', 'y', fetchClient, sim.baseUrl);
    expect((await anon.getHealth()).status).toBe('pass');
    const res = await fetch(`${sim.baseUrl}/messages`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from('sms:pa55word').toString('base64')}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ id: 'p-1', textMessage: { text: 'hi' }, phoneNumbers: ['+84901111111'] }),
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toBe(`${sim.baseUrl}/messages/p-1`);
    expect((await client.getState('p-1')).id).toBe('p-1');
    expect((await fetch(`${sim.url}/3rdparty/v1/health`)).status).toBe(404);
  });
});

describe('control API', () => {
  it('injects an SMS and sets outcomes over /sim/*', async () => {
    const { sim, client } = await phone('local', { controlApi: true });
    const r = await receiver();
    await client.registerWebhook({ event: WebHookEventType.SmsReceived, url: r.url });
    const inj = await fetch(`${sim.url}/sim/inject-sms`, {
      method: 'POST',
      body: JSON.stringify({ slot: 1, from: '+84901234567', text: 'OTP 5555' }),
    });
    expect(inj.status).toBe(200);
    const out = await fetch(`${sim.url}/sim/outcome`, {
      method: 'POST',
      body: JSON.stringify({ outcome: 'failed' }),
    });
    expect(out.status).toBe(200);
    await client.send({ id: 'c-1', message: 'x', phoneNumbers: ['+84901111111'] });
    await sim.webhooksSettled();
    expect(JSON.parse(r.got[0]?.raw ?? '{}').payload.message).toBe('OTP 5555');
    expect((await client.getState('c-1')).state).toBe('Failed');
  });
});

describe('settings', () => {
  const auth = `Basic ${Buffer.from('sms:pa55word').toString('base64')}`;
  const patch = (sim: PhoneSim, body: unknown) =>
    fetch(`${sim.baseUrl}/settings`, {
      method: 'PATCH',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('Local PATCH sets the signing key (never shown) and the ping interval', async () => {
    const { sim, client } = await phone('local');
    const r = await receiver();
    await client.registerWebhook({ event: WebHookEventType.SystemPing, url: r.url });
    const res = await patch(sim, { webhooks: { signing_key: 'newKey99' }, ping: { interval_seconds: 1 } });
    expect(res.status).toBe(200);
    const shown = (await res.json()) as { webhooks: Record<string, unknown>; ping: Record<string, unknown> };
    expect(shown.ping.interval_seconds).toBe(1);
    expect(shown.webhooks).not.toHaveProperty('signing_key');
    expect(sim.currentSigningKey).toBe('newKey99');
    const got = await fetch(`${sim.baseUrl}/settings`, { headers: { Authorization: auth } });
    expect(await got.json()).toEqual(sim.settings());
    expect(sim.settings().webhooks).not.toHaveProperty('signing_key');

    // The interval applies: a ping comes within about a second, signed with the new key.
    const deadline = Date.now() + 3000;
    while (r.got.length === 0 && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 50));
    const ping = r.got[0];
    if (!ping) throw new Error('no ping arrived');
    expect(JSON.parse(ping.raw).event).toBe('system:ping');
    expect(verify('newKey99', ping)).toBe(true);
    expect(verify(KEY, ping)).toBe(false);

    // 0 stops it; a bad value is refused.
    expect((await patch(sim, { ping: { interval_seconds: 0 } })).status).toBe(200);
    expect((await patch(sim, { ping: { interval_seconds: 'soon' } })).status).toBe(400);
    expect((await patch(sim, { webhooks: { signing_key: '' } })).status).toBe(400);
  });

  it.each(['cloud', 'private'] as const)('%s refuses the Local-only signing key with 400', async (mode) => {
    const { sim } = await phone(mode);
    const res = await patch(sim, { webhooks: { signing_key: 'other' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/signing_key/);
    expect(sim.currentSigningKey).toBe(KEY);
    expect((await patch(sim, { ping: { interval_seconds: 60 } })).status).toBe(200);
    expect(sim.settings().ping).toEqual({ interval_seconds: 60 });
  });

  it('needs credentials', async () => {
    const { sim } = await phone('local');
    const res = await fetch(`${sim.baseUrl}/settings`, { method: 'PATCH', body: '{}' });
    expect(res.status).toBe(401);
  });
});

describe('MMS and accounts', () => {
  it('mms:downloaded carries the body, subject and every part in base64', async () => {
    const { sim, client } = await phone('local');
    const r = await receiver();
    // The npm client's enum predates MMS events.
    await client.registerWebhook({
      event: 'mms:downloaded' as (typeof WebHookEventType)[keyof typeof WebHookEventType],
      url: r.url,
    });
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const messageId = sim.injectMms({
      slot: 2,
      from: '+84901234567',
      subject: 'Photo',
      body: 'Look',
      parts: [
        { contentType: 'application/smil', name: 'smil.xml', data: Buffer.from('<smil/>') },
        { contentType: 'image/jpeg', name: 'a.jpg', data: jpeg },
      ],
    });
    await sim.webhooksSettled();
    const w = r.got[0];
    if (!w) throw new Error('no webhook');
    expect(verify(KEY, w)).toBe(true);
    const body = JSON.parse(w.raw);
    expect(body).toMatchObject({
      event: 'mms:downloaded',
      payload: { messageId, sender: '+84901234567', recipient: '+84912345678', simNumber: 2 },
    });
    expect(body.payload).toMatchObject({ subject: 'Photo', body: 'Look' });
    expect(body.payload.attachments).toHaveLength(2);
    expect(body.payload.attachments[1]).toMatchObject({ partId: 2, contentType: 'image/jpeg', size: 7 });
    expect(Buffer.from(body.payload.attachments[1].data, 'base64')).toEqual(Buffer.from(jpeg));
  });

  it('an account lists its other phones; their messages stay Pending', async () => {
    const { sim, client } = await phone('cloud', {
      otherDevices: [
        { id: 'OtherPhone00000000001', name: 'google/pixel7' },
        { id: 'GonePhone000000000001', name: 'xiaomi/old', deletedAt: '2026-01-02T00:00:00Z' },
      ],
    });
    const devices = await client.getDevices();
    expect(devices.map((d) => d.id)).toEqual([
      sim.deviceId,
      'OtherPhone00000000001',
      'GonePhone000000000001',
    ]);
    expect((devices[2] as unknown as { deletedAt: string }).deletedAt).toBe('2026-01-02T00:00:00Z');
    await client.send({
      id: 'o-1',
      message: 'x',
      phoneNumbers: ['+84901111111'],
      deviceId: 'OtherPhone00000000001',
    } as Parameters<typeof client.send>[0]);
    await expectStatus(
      client.send({
        id: 'o-2',
        message: 'x',
        phoneNumbers: ['+84901111111'],
        deviceId: 'GonePhone000000000001',
      } as Parameters<typeof client.send>[0]),
      400,
    );
    await sim.webhooksSettled();
    expect((await client.getState('o-1')).state).toBe('Pending');
  });

  it('queue limits answer 503 once the phone has too many Pending messages', async () => {
    const { sim, client } = await phone('private', { maxPending: 1, stepMs: 60_000 });
    await client.send({ id: 'q-1', message: 'x', phoneNumbers: ['+84901111111'] });
    const err = await expectStatus(
      client.send({ id: 'q-2', message: 'x', phoneNumbers: ['+84901111111'] }),
      503,
    );
    expect(JSON.parse(err.body).message).toBe('queue limits exceeded: too many pending messages: 1 / 1');
    expect(sim.sentMessages().map((m) => m.id)).toEqual(['q-1']);
  });

  it('an older app reports no simCards', async () => {
    const { client } = await phone('cloud', { simReporting: false });
    const [dev] = await client.getDevices();
    expect(dev).toBeDefined();
    expect(dev).not.toHaveProperty('simCards');
  });
});

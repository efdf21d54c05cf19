import { createHmac } from 'node:crypto';
import { endpoints } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import { PhoneSim, type PhoneSimOptions } from '@simdock/phone-sim';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addSimGateway, ledgerMismatches, waitFor } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { PNG } from '../../test/media.ts';
import { openSse } from '../../test/sse.ts';
import { dispatchOnce, failOverdueResults } from '../messaging/index.ts';

// Android phones running SMSGate as gateways, through the phone simulator over the real protocol
// (REST API, signed webhooks): adding and scanning in each mode, the webhook signature checks on
// the gateway's URL, a rental whose code arrives by `sms:received`, bulk SMS through the phone's
// SIMs, and one campaign over a mixed fleet (a multi-port box and a phone).

let s: TestServer;
let admin: string;
const phones: PhoneSim[] = [];
const boxes: GatewaySim[] = [];

const SLOTS = [
  { phoneNumber: '+12025550301', iccid: '8901260000000000301', carrierName: 'T-Mobile' },
  { phoneNumber: '+12025550302', iccid: '8901260000000000302', carrierName: 'AT&T' },
];
const KEY = 'phone-signing-key';

beforeAll(async () => {
  s = await startTestServer({ env: { SMS_PER_SIM_PER_MINUTE: '600' } });
  admin = await s.adminToken();
  await s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000 },
    token: admin,
  });
  await s.api(endpoints.service.update, {
    body: { name: 'Telegram', code: 'tg', price: 0.5, textContains: 'Telegram', pattern: '(\\d{5})' },
    token: admin,
  });
});
afterAll(async () => {
  await Promise.all([...phones, ...boxes].map((x) => x.stop()));
  expect(await ledgerMismatches(s.db)).toEqual([]);
  await s.close();
});
afterEach(async () => {
  // Each test starts with no device and nothing waiting to be sent.
  await Promise.all([...phones.splice(0), ...boxes.splice(0)].map((x) => x.stop()));
  await s.db.query(`UPDATE messages SET status = 'cancelled' WHERE status IN ('queued', 'sending', 'sent')`);
  await s.db.query('UPDATE gateways SET is_enable = false');
});

async function startPhone(opts: Partial<PhoneSimOptions> = {}): Promise<PhoneSim> {
  const phone = await PhoneSim.start({
    mode: 'local',
    username: 'sms',
    password: 'phone-pass',
    signingKey: KEY,
    slots: SLOTS,
    allowHttpWebhooks: true,
    ...opts,
  });
  phones.push(phone);
  return phone;
}

let seq = 0;
/** Adds the phone through the admin API as an admin would, and scans it. */
async function addPhone(
  phone: PhoneSim,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; scan: { status: number; body: Record<string, unknown> } }> {
  seq += 1;
  const add = await s.api(endpoints.gateway.update, {
    body: {
      gateway: {
        kind: 'smsgate',
        mode: phone.mode,
        name: `phone ${seq}`,
        url: phone.baseUrl,
        userName: 'sms',
        password: 'phone-pass',
        signingKey: KEY,
        ...extra,
      },
    },
    token: admin,
  });
  expect(add.status, JSON.stringify(add.body) + s.logs.filter((l) => l.includes('refused')).join('\n')).toBe(
    200,
  );
  const id = String(add.body.id);
  const scan = await s.api(endpoints.gateway.scan, { body: { id }, token: admin });
  return { id, scan };
}

const simsOf = async (id: string) => {
  const res = await s.api(endpoints.gateway.report, { body: { id }, token: admin });
  expect(
    res.status,
    s.logs
      .filter((l) => l.includes('database refused'))
      .join('\n')
      .slice(0, 3000),
  ).toBe(200);
  return res.body.sims as {
    port: string;
    number: string | null;
    iccid: string | null;
    usable: boolean;
  }[];
};

/** Posts a webhook body to the gateway's URL as a phone would, signed with `key` at `ts`. */
async function postWebhook(
  url: string,
  body: unknown,
  {
    key = KEY,
    ts = Math.floor(Date.now() / 1000),
    signature,
  }: { key?: string; ts?: number; signature?: string } = {},
) {
  const raw = JSON.stringify(body);
  const sig =
    signature ??
    createHmac('sha256', key)
      .update(raw + String(ts))
      .digest('hex');
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': sig, 'x-timestamp': String(ts) },
    body: raw,
  });
  return { status: res.status, text: await res.text(), raw, sig, ts };
}

const receivedBody = (deviceId: string, id: string, text: string, sender = '+15550001111') => ({
  deviceId,
  event: 'sms:received',
  id,
  webhookId: 'w1',
  payload: {
    messageId: id.slice(0, 8),
    message: text,
    sender,
    recipient: SLOTS[0]!.phoneNumber,
    phoneNumber: sender,
    simNumber: 1,
    receivedAt: new Date().toISOString(),
  },
});

const storedTexts = async (gatewayId: string) =>
  (
    await s.db.query<{ body: string }>(
      'SELECT body FROM incoming_sms WHERE gateway_id = $1 ORDER BY received_at',
      [gatewayId],
    )
  ).map((r) => r.body);

describe('adding and scanning a phone', () => {
  it.each(['local', 'cloud', 'private'] as const)(
    '%s: the scan learns the device, its SIMs by slot and registers the webhooks to the gateway URL',
    async (mode) => {
      const phone = await startPhone({ mode });
      const { id, scan } = await addPhone(phone);
      expect(scan.status, JSON.stringify(scan.body)).toBe(200);
      expect(scan.body).toMatchObject({
        kind: 'smsgate',
        mode,
        mac: '',
        totalSIM: 2,
        onlineStatus: 'Online',
      });
      expect(scan.body.deviceId).toBe(phone.deviceId);
      const base = (scan.body.pushUrls as { base: string }).base;
      const events = phone
        .webhooks()
        .filter((w) => w.url === base)
        .map((w) => w.event)
        .sort();
      expect(events).toEqual(
        ['mms:downloaded', 'sms:delivered', 'sms:failed', 'sms:received', 'sms:sent', 'system:ping'].sort(),
      );
      // A second scan replaces the registrations instead of adding more.
      await s.api(endpoints.gateway.scan, { body: { id }, token: admin });
      expect(phone.webhooks().filter((w) => w.url === base)).toHaveLength(6);

      const sims = await simsOf(id);
      expect(sims.map((x) => x.port)).toEqual(['1', '2']);
      if (mode === 'local') {
        // The phone's own server shows the SIMs in full; numbers kept as digits, like a box's.
        expect(sims.map((x) => x.number)).toEqual(['12025550301', '12025550302']);
        expect(sims[0]!.iccid).toBe(SLOTS[0]!.iccid);
      } else {
        // The cloud shows only the last 4 characters: no number until an admin enters it.
        expect(sims.map((x) => x.number)).toEqual([null, null]);
        expect(sims[0]!.iccid).toMatch(/^\*+0301$/);
      }
    },
  );

  it('a cloud SIM becomes rentable once the admin enters its number', async () => {
    const phone = await startPhone({ mode: 'cloud' });
    const { id } = await addPhone(phone);
    const rentable = async () =>
      (await s.db.query('SELECT 1 FROM sims WHERE gateway_id = $1 AND number IS NOT NULL', [id])).length;
    expect(await rentable()).toBe(0);
    const set = await s.api(endpoints.sim.setNumber, {
      body: { gatewayId: id, port: 'SIM 2', number: '+1 202 555 0302' },
      token: admin,
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ deviceUpdated: false, sim: { port: '2', number: '+12025550302' } });
    // The number stays through the next scan (the cloud still hides it).
    await s.api(endpoints.gateway.scan, { body: { id }, token: admin });
    expect((await simsOf(id)).find((x) => x.port === '2')!.number).toBe('+12025550302');
    expect(await rentable()).toBe(1);
    const bad = await s.api(endpoints.sim.setNumber, {
      body: { gatewayId: id, port: '1.01', number: '12025550302' },
      token: admin,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('SIM must be');
  });

  it('refuses a phone without its signing key (cloud) and a second gateway for the same phone', async () => {
    const phone = await startPhone({ mode: 'cloud' });
    const noKey = await s.api(endpoints.gateway.update, {
      body: {
        gateway: {
          kind: 'smsgate',
          mode: 'cloud',
          name: 'no key',
          url: phone.baseUrl,
          userName: 'sms',
          password: 'x',
        },
      },
      token: admin,
    });
    expect(noKey.status).toBe(400);
    expect(noKey.body.msg).toContain('signing key');
    const noMode = await s.api(endpoints.gateway.update, {
      body: {
        gateway: { kind: 'smsgate', name: 'no mode', url: phone.baseUrl, userName: 'sms', password: 'x' },
      },
      token: admin,
    });
    expect(noMode.status).toBe(400);

    await addPhone(phone, { deviceId: phone.deviceId });
    seq += 1;
    const twice = await s.api(endpoints.gateway.update, {
      body: {
        gateway: {
          kind: 'smsgate',
          mode: 'cloud',
          name: 'again',
          url: phone.baseUrl,
          userName: 'sms',
          password: 'phone-pass',
          signingKey: KEY,
          deviceId: phone.deviceId,
        },
      },
      token: admin,
    });
    expect(twice.status).toBe(409);
  });

  it('a Scan that would leave the phone without a working signing key fails and says what to set', async () => {
    // Cloud: the phone signs with its own key; with none stored every webhook would be refused.
    const cloud = await startPhone({ mode: 'cloud' });
    const { id } = await addPhone(cloud);
    await s.db.query('UPDATE gateways SET signing_key_enc = NULL WHERE id = $1', [id]);
    const scan = await s.api(endpoints.gateway.scan, { body: { id }, token: admin });
    expect(scan.status).toBe(503);
    expect(String(scan.body.msg)).toContain('No signing key is stored for this phone');
    expect(String(scan.body.msg)).toContain("gateway's Signing Key field");

    // Local mode pointed at a server that cannot take SimDock's key.
    const server = await startPhone({ mode: 'private' });
    const local = await s.api(endpoints.gateway.update, {
      body: {
        gateway: {
          kind: 'smsgate',
          mode: 'local',
          name: 'local at a server',
          url: server.baseUrl,
          userName: 'sms',
          password: 'phone-pass',
        },
      },
      token: admin,
    });
    expect(local.status).toBe(200);
    const refused = await s.api(endpoints.gateway.scan, {
      body: { id: String(local.body.id) },
      token: admin,
    });
    expect(refused.status).toBe(503);
    expect(String(refused.body.msg)).toContain("The phone did not take SimDock's signing key");

    // Leaving Local mode keeps no SimDock-made key: the phone's own key is required.
    const phone = await startPhone();
    const added = await addPhone(phone, { signingKey: '' });
    expect(added.scan.status).toBe(200);
    const toCloud = await s.api(endpoints.gateway.update, {
      body: {
        gateway: {
          id: added.id,
          kind: 'smsgate',
          mode: 'cloud',
          name: 'now cloud',
          url: phone.baseUrl,
          userName: 'sms',
          password: '',
          signingKey: '',
        },
      },
      token: admin,
    });
    expect(toCloud.status).toBe(400);
    expect(toCloud.body).toMatchObject({ field: 'signingKey' });
  });

  it('a wrong password is a 503 the admin can act on', async () => {
    const phone = await startPhone();
    const { scan } = await addPhone(phone, { password: 'wrong' });
    expect(scan.status).toBe(503);
    expect(String(scan.body.msg)).toContain('User Name and Password');
  });
});

describe('webhook signatures on the gateway URL', () => {
  it('accepts a signed webhook once, refuses forged, wrong-key, stale and unsigned ones', async () => {
    const phone = await startPhone();
    const { id, scan } = await addPhone(phone);
    const base = (scan.body.pushUrls as { base: string }).base;
    const deviceId = phone.deviceId;

    const ok = await postWebhook(base, receivedBody(deviceId, 'evt-ok-000001', 'signed hello'));
    expect(ok.status, ok.text).toBe(200);
    expect(await storedTexts(id)).toEqual(['signed hello']);

    // Replayed: the same bytes, signature and time again → acknowledged, nothing new.
    const replay = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': ok.sig, 'x-timestamp': String(ok.ts) },
      body: ok.raw,
    });
    expect(replay.status).toBe(200);
    expect(await storedTexts(id)).toEqual(['signed hello']);
    expect(
      (await s.db.query('SELECT event_id FROM device_push_ids WHERE gateway_id = $1', [id])).map(
        (r) => (r as { event_id: string }).event_id,
      ),
    ).toEqual(['evt-ok-000001']);

    const forged = await postWebhook(base, receivedBody(deviceId, 'evt-forged-01', 'forged'), {
      signature: 'ab'.repeat(32),
    });
    expect(forged.status).toBe(401);
    const wrongKey = await postWebhook(base, receivedBody(deviceId, 'evt-wrongkey', 'wrong key'), {
      key: 'other',
    });
    expect(wrongKey.status).toBe(401);
    const stale = await postWebhook(base, receivedBody(deviceId, 'evt-stale-001', 'stale'), {
      ts: Math.floor(Date.now() / 1000) - 10 * 60,
    });
    expect(stale.status).toBe(401);
    const unsigned = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(receivedBody(deviceId, 'evt-unsigned', 'unsigned')),
    });
    expect(unsigned.status).toBe(401);
    // A signed push from another phone of the account does not land on this gateway.
    const other = await postWebhook(
      base,
      receivedBody('AnotherPhoneId0000000', 'evt-other-01', 'other phone'),
    );
    expect(other.status).toBe(401);
    // The phone's own pushes go to the one URL; the box's channels are not the phone's.
    const channel = await postWebhook(`${base}/sms`, receivedBody(deviceId, 'evt-chan-0001', 'channel'));
    expect(channel.status).toBe(400);

    expect(await storedTexts(id)).toEqual(['signed hello']);
  });

  it('keeps the phone online from its pings', async () => {
    const phone = await startPhone();
    const { id } = await addPhone(phone);
    await s.db.query('UPDATE gateways SET last_update = NULL WHERE id = $1', [id]);
    phone.pingNow();
    await phone.webhooksSettled();
    const row = await waitFor(async () => {
      const [r] = await s.db.query<{ last_update: Date | null }>(
        'SELECT last_update FROM gateways WHERE id = $1',
        [id],
      );
      return r?.last_update ? r : undefined;
    });
    expect(row.last_update).not.toBeNull();
  });
});

describe('through a phone', () => {
  it('rental: the code arrives by the phone’s sms:received and reaches the user live', async () => {
    const phone = await startPhone();
    await addPhone(phone);
    const u = await s.createUser({ balance: 2 });
    const stream = await openSse(`${s.url}/api/Order/stream`, u.token);
    try {
      const rented = await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: u.token });
      expect(rented.status, JSON.stringify(rented.body)).toBe(200);
      const order = rented.body.data;
      const slot = SLOTS.findIndex((x) => x.phoneNumber === `+${order.phoneNumber}`);
      expect(slot).toBeGreaterThanOrEqual(0);
      phone.injectSms({ slot: slot + 1, from: 'Telegram', text: 'Telegram code: 55021. Do not share it.' });
      const ev = await stream.next((e) => e.event === 'order' && JSON.parse(e.data).status === 'SUCCESS');
      expect(JSON.parse(ev.data)).toMatchObject({ id: order.id, codeText: '55021' });
    } finally {
      stream.close();
    }
  });

  /** Ticks the dispatcher until every message of the campaign is final. */
  async function runCampaign(token: string, numbers: string[], devices: { settle(): Promise<void> }[]) {
    const res = await s.api(endpoints.outreach.sendMassSms, {
      body: { number: numbers.join('\n'), mess: 'Hi there' },
      token,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const campaignId = res.body.data!.campaignId;
    for (let i = 0; i < 80; i++) {
      await dispatchOnce(s.ctx);
      for (const d of devices) await d.settle();
      const rows = await s.db.query<{
        status: string;
        gateway_name: string;
        port: string;
        status_reason: string | null;
      }>('SELECT status, gateway_name, port, status_reason FROM messages WHERE campaign_id = $1::bigint', [
        campaignId,
      ]);
      if (rows.every((r) => r.status === 'delivered' || r.status === 'failed')) return rows;
      await new Promise((r) => setTimeout(r, 30));
      s.clock.advance(1000);
    }
    throw new Error('campaign not done');
  }

  const phoneDevice = (p: PhoneSim) => ({
    settle: async () => {
      await new Promise((r) => setTimeout(r, 40));
      await p.webhooksSettled();
    },
  });

  it("keeps the carrier's acceptance and the handset's delivery apart; a failed delivery report after Sent fails and refunds once", async () => {
    await s.api(endpoints.settings.update, { body: { SmsPricePerSegment: 0.05 }, token: admin });
    try {
      const phone = await startPhone();
      // ...01 is delivered; ...02 is sent and its delivery report fails later; ...03 is sent and no
      // delivery report ever comes.
      phone.setOutcome((m) =>
        m.phoneNumber.endsWith('01')
          ? { deliverAfterMs: 4000 }
          : m.phoneNumber.endsWith('02')
            ? { failAfterSentMs: 4000 }
            : 'sent',
      );
      await addPhone(phone);
      const u = await s.createUser({ balance: 1 });
      const proof = await s.reauth(u);
      const key = (await s.api(endpoints.apikey.reset, { token: u.token, headers: proof })).body
        .apiKey as string;
      const hook = await s.api(endpoints.webhooks.add, {
        body: {
          url: 'http://127.0.0.1:9/hook',
          events: ['message.sent', 'message.delivered', 'message.failed'],
        },
        token: u.token,
        headers: proof,
      });
      expect(hook.status, JSON.stringify(hook.body)).toBe(200);
      const numbers = ['12025552201', '12025552202', '12025552203'];
      const res = await s.api(endpoints.outreach.sendMassSms, {
        body: { number: numbers.join('\n'), mess: 'Hi' },
        token: u.token,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const campaignId = res.body.data!.campaignId as string;
      const state = async () =>
        Object.fromEntries(
          (
            await s.db.query<{ recipient: string; status: string; carrier: boolean; id: string }>(
              `SELECT recipient, status, carrier_at IS NOT NULL AS carrier, id::text AS id
                 FROM messages WHERE campaign_id = $1::bigint`,
              [campaignId],
            )
          ).map((r) => [r.recipient.slice(-2), r]),
        );
      const api = async (id: string) =>
        (
          await fetch(`${s.url}/api/v1/messages/o${id}`, {
            headers: { authorization: `Bearer ${key}` },
          }).then((r) => r.json())
        ).message.status as string;
      const history = async () =>
        Object.fromEntries(
          (
            (
              await s.api(endpoints.history.queryMsg, {
                body: { current: 1, size: 50, params: {} },
                token: u.token,
              })
            ).body.data.records as { receiver: string; status: number }[]
          ).map((r) => [r.receiver.slice(-2), r.status]),
        );
      const balance = async () =>
        (await s.api(endpoints.user.info, { token: u.token })).body.balance as number;
      const events = async (id: string) =>
        (
          await s.db.query<{ event: string }>(
            `SELECT event FROM webhook_deliveries WHERE user_id = $1 AND body LIKE '%' || $2 || '%' ORDER BY id`,
            [u.id, `"o${id}"`],
          )
        ).map((r) => r.event);

      // Every SIM answer recorded and the carrier's acceptances in: all three are sent, none delivered.
      // (Not settle(): the phone-sim's settle waits for the late reports too.)
      await waitFor(async () => {
        await dispatchOnce(s.ctx);
        await new Promise((r) => setTimeout(r, 50));
        const st = await state();
        return Object.values(st).every((r) => r.carrier) ? st : undefined;
      });
      const sentNow = await state();
      expect(Object.values(sentNow).map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
      expect(await history()).toEqual({ '01': 3, '02': 3, '03': 3 });
      expect(await api(sentNow['01']!.id)).toBe('sent');
      expect(await balance()).toBeCloseTo(0.85, 10);

      // The handset's reports: ...01 delivered, ...02's delivery failed.
      const settled = await waitFor(async () => {
        await phone.webhooksSettled();
        const st = await state();
        return st['01']!.status === 'delivered' && st['02']!.status === 'failed' ? st : undefined;
      });
      expect(settled['03']!.status).toBe('sent');
      expect(await history()).toEqual({ '01': 1, '02': 0, '03': 3 });
      expect(await api(settled['01']!.id)).toBe('delivered');
      expect(await api(settled['02']!.id)).toBe('failed');
      expect(await events(settled['01']!.id)).toEqual(['message.sent', 'message.delivered']);
      expect(await events(settled['02']!.id)).toEqual(['message.sent', 'message.failed']);
      expect(await events(settled['03']!.id)).toEqual(['message.sent']);
      // Refunded once, through billing: one message_refund row, ledger = balance.
      await waitFor(async () => ((await balance()) === 0.9 ? true : undefined));
      const refunds = await s.db.query<{ amount: string }>(
        `SELECT amount::text AS amount FROM ledger WHERE user_id = $1 AND kind = 'message_refund'`,
        [u.id],
      );
      expect(refunds).toEqual([{ amount: '0.05' }]);
      expect(await ledgerMismatches(s.db)).toEqual([]);
      // The campaign is over (what is left waits only for a handset's report); the result timeout
      // does not fail the message the carrier took.
      // (A later clock for this job only: the shared clock stays where the other tests need it.)
      const later = new Date(
        s.clock.now().getTime() + (s.ctx.config.SMS_RESULT_TIMEOUT_MINUTES + 5) * 60_000,
      );
      await failOverdueResults({ ...s.ctx, clock: { ...s.ctx.clock, now: () => later } });
      expect((await state())['03']!.status).toBe('sent');
      const progress = await s.api(endpoints.outreach.campaign, { body: { campaignId }, token: u.token });
      expect(progress.body.data).toMatchObject({ delivered: 1, failed: 1, sent: 1, finished: true });
      expect(await balance()).toBe(0.9);
    } finally {
      await s.api(endpoints.settings.update, { body: { SmsPricePerSegment: 0 }, token: admin });
    }
  });

  it('bulk SMS: sends go out through the phone SIMs, results come back by webhook', async () => {
    const phone = await startPhone();
    phone.setOutcome((m) =>
      m.phoneNumber.endsWith('09') ? { failed: 'Send result: RESULT_ERROR_GENERIC_FAILURE' } : 'delivered',
    );
    await addPhone(phone);
    const u = await s.createUser({ balance: 5 });
    const numbers = ['12025551101', '12025551102', '12025551103', '12025551109'];
    const rows = await runCampaign(u.token, numbers, [phoneDevice(phone)]);
    expect(rows.filter((r) => r.status === 'delivered')).toHaveLength(3);
    const failed = rows.find((r) => r.status === 'failed')!;
    expect(failed.status_reason).toContain('RESULT_ERROR_GENERIC_FAILURE');
    // Each message went out once, from a SIM the platform chose (slot 1 or 2).
    const sent = phone.sentMessages();
    expect(sent.map((m) => m.recipients[0]!.phoneNumber).sort()).toEqual(numbers);
    expect(sent.every((m) => m.simNumber === 1 || m.simNumber === 2)).toBe(true);
    expect(new Set(rows.map((r) => r.port))).toEqual(new Set(sent.map((m) => String(m.simNumber))));
  });

  it('chat: a reply arrives by the phone, our answer leaves through the same phone SIM; no MMS from a phone', async () => {
    const phone = await startPhone();
    await addPhone(phone);
    const u = await s.createUser({ balance: 5 });
    const rows = await runCampaign(u.token, ['12025553001'], [phoneDevice(phone)]);
    expect(rows[0]!.status).toBe('delivered');
    const slot = Number(rows[0]!.port);
    // The recipient answers the SIM that wrote to them.
    phone.injectSms({ slot, from: '+12025553001', text: 'Who is this?' });
    await phone.webhooksSettled();
    const conv = await waitFor(async () => {
      const list = await s.api(endpoints.livechat.queryConversation, { token: u.token });
      return (list.body.data.records as { conversationId: string; latestSms: string }[]).find(
        (c) => c.latestSms === 'Who is this?',
      );
    });
    const body = {
      conversationId: conv.conversationId,
      toNumber: '12025553001',
      simNo: 1,
      mmsType: 0,
      mmsTitle: '',
    };
    const answer = await s.api(endpoints.livechat.reply, {
      rawBody: { ...body, sms: 'It is the shop.', mmsFile: '' },
      token: u.token,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const messageId = String(answer.body.data!.id).slice(1);
    for (let i = 0; i < 40; i++) {
      await dispatchOnce(s.ctx);
      await phoneDevice(phone).settle();
      const [m] = await s.db.query<{ status: string }>('SELECT status FROM messages WHERE id = $1::bigint', [
        messageId,
      ]);
      if (m?.status === 'delivered') break;
      s.clock.advance(1000);
    }
    const sent = phone.sentMessages().find((m) => m.text === 'It is the shop.');
    expect(sent?.simNumber).toBe(slot);
    expect(
      (
        await s.db.query<{ status: string }>('SELECT status FROM messages WHERE id = $1::bigint', [messageId])
      )[0]!.status,
    ).toBe('delivered');

    // An MMS cannot leave through a phone: the thread says so before any upload, and a reply with a
    // file is refused in plain words (no gateway or port), before anything is queued or charged.
    const opened = await s.api(endpoints.livechat.queryConversationDetail, {
      body: { conversationId: body.conversationId },
      token: u.token,
    });
    expect(opened.body.data.pictures).toBe(false);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'cat.png');
    const up = await fetch(`${s.url}/api/LiveChat/mmsUpload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}` },
      body: form,
    });
    expect(up.status).toBe(200);
    const file = ((await up.json()) as { fileName: string }).fileName;
    const before = (await s.api(endpoints.user.info, { token: u.token })).body.balance;
    const mms = await s.api(endpoints.livechat.reply, {
      rawBody: { ...body, sms: 'A picture', mmsFile: file },
      token: u.token,
    });
    expect(mms.status).toBe(422);
    expect(mms.body).toMatchObject({
      error: 'mms_not_supported',
      msg: 'This conversation goes through a phone, which cannot send pictures. Send the text without the picture.',
    });
    expect((await s.api(endpoints.user.info, { token: u.token })).body.balance).toBe(before);
  });

  it('a mixed fleet sends one campaign through a box and a phone', async () => {
    const box = await GatewaySim.start({ ports: 2, sendDelayMs: 5 });
    boxes.push(box);
    const boxId = await addSimGateway(s, admin, box, 'mixed box');
    const phone = await startPhone();
    const { id: phoneId } = await addPhone(phone);
    const names = await s.db.query<{ id: string; name: string }>(
      'SELECT id, name FROM gateways WHERE id = ANY($1::uuid[])',
      [[boxId, phoneId]],
    );
    const u = await s.createUser({ balance: 5 });
    const numbers = Array.from({ length: 12 }, (_, i) => String(12025552000 + i));
    const rows = await runCampaign(u.token, numbers, [
      { settle: () => box.pushesSettled() },
      phoneDevice(phone),
    ]);
    expect(rows.every((r) => r.status === 'delivered')).toBe(true);
    const used = new Set(rows.map((r) => r.gateway_name));
    expect(used).toEqual(new Set(names.map((n) => n.name)));
    const viaPhone = phone.sentMessages().length;
    const viaBox = box.sentTasks().length;
    expect(viaPhone + viaBox).toBe(12);
    expect(viaPhone).toBeGreaterThan(0);
    expect(viaBox).toBeGreaterThan(0);
  });
});

import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { PhoneSim, type PhoneSimOptions, type Received, startReceiver } from '@simdock/phone-sim';
import { afterEach, describe, expect, it } from 'vitest';
import type { SendResult } from '../../../context.ts';
import {
  type DevicePush,
  type DriverTarget,
  GatewayError,
  type HttpPushTransport,
  ProtocolError,
  PushRefused,
  type PushUrls,
  type RawPush,
} from './driver.ts';
import { SmsGateDriver } from './smsgate.ts';

const MODES = ['local', 'cloud', 'private'] as const;
type Mode = (typeof MODES)[number];

const PHONE_KEY = 'phoneKey1';
const SLOTS: PhoneSimOptions['slots'] = [
  { phoneNumber: '+84907654321', iccid: '8984048000001234567', carrierName: 'Viettel' },
  { phoneNumber: '+84912345678', iccid: '8984020000009876543', carrierName: 'Vinaphone' },
];

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function phone(mode: Mode, extra: Partial<PhoneSimOptions> = {}): Promise<PhoneSim> {
  const sim = await PhoneSim.start({
    mode,
    username: 'sms',
    password: 'pa55word',
    slots: SLOTS,
    signingKey: PHONE_KEY,
    seed: 11,
    // The receiver is plain http on 127.0.0.1; Cloud/Private accept that only from an "insecure" build.
    allowHttpWebhooks: mode !== 'local',
    ...extra,
  });
  cleanup.push(() => sim.stop());
  return sim;
}

/** A driver for the phone, from the bare host URL (the driver adds the mode's API path). */
function driverFor(sim: PhoneSim, over: Partial<DriverTarget> = {}, timeoutMs = 2000): SmsGateDriver {
  return new SmsGateDriver(
    {
      url: sim.url,
      username: 'sms',
      password: 'pa55word',
      mode: sim.mode,
      externalId: null,
      signingKey: PHONE_KEY,
      ...over,
    },
    { timeoutMs },
  );
}

function pushUrls(base: string): PushUrls {
  return { base, status: `${base}/status`, sms: `${base}/sms`, report: `${base}/report` };
}

async function receiver() {
  const r = await startReceiver();
  cleanup.push(r.close);
  return r;
}

function rawPush(w: Received, now = new Date(), channel: HttpPushTransport['channel'] = ''): RawPush {
  const headers: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(w.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  return { transport: { kind: 'http', channel, headers, query: {} }, body: w.body, now };
}

async function failure(p: Promise<unknown>): Promise<GatewayError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  return err as GatewayError;
}

function refused(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PushRefused);
    return (err as Error).message;
  }
  throw new Error('expected PushRefused');
}

/** A phone wired to a receiver: the driver knows its id and has registered the webhooks. */
async function connected(mode: Mode, extra: Partial<PhoneSimOptions> = {}, over: Partial<DriverTarget> = {}) {
  const sim = await phone(mode, extra);
  const r = await receiver();
  const driver = driverFor(sim, { externalId: sim.deviceId, ...over });
  await driver.connect(pushUrls(r.url));
  return { sim, r, driver };
}

describe.each(MODES)('SmsGateDriver, %s mode', (mode) => {
  it('reads the phone and its SIMs (masked outside Local)', async () => {
    const sim = await phone(mode);
    const status = await driverFor(sim).getStatus();
    expect(status).toMatchObject({
      externalId: sim.deviceId,
      model: 'samsung/a52qnsxx',
      ip: null,
      firmware: mode === 'local' ? '1.40.0' : null,
      maxPorts: 1,
      maxSlots: null,
      complete: true,
    });
    expect(status.externalId).toMatch(mode === 'local' ? /^[0-9a-f]{32}$/ : /^[\w-]{21}$/);
    expect(status.sims.map((s) => [s.slot, s.state, s.active])).toEqual([
      ['1', 'ready', true],
      ['2', 'ready', true],
    ]);
    if (mode === 'local') {
      expect(status.sims[0]).toMatchObject({
        iccid: '8984048000001234567',
        // Digits, as the platform keeps device numbers.
        number: '84907654321',
        operator: 'Viettel',
      });
    } else {
      // A masked ICCID is kept as it came; a masked number or carrier is no value.
      expect(status.sims[0]).toMatchObject({ iccid: '***************4567', number: null, operator: null });
      expect(status.sims[1]).toMatchObject({ iccid: '***************6543', number: null, operator: null });
    }
    // The known id is found again.
    expect((await driverFor(sim, { externalId: sim.deviceId }).getStatus()).externalId).toBe(sim.deviceId);
  });

  it('an unknown Device ID is refused by name', async () => {
    const sim = await phone(mode);
    const err = await failure(driverFor(sim, { externalId: 'NoSuchPhone' }).getStatus());
    expect(err.kind).toBe('refused');
    expect(err.message).toContain('NoSuchPhone');
    expect(err.message).toContain(sim.deviceId);
  });

  it('connect registers one webhook per event at the base URL, again without duplicates', async () => {
    const sim = await phone(mode);
    const driver = driverFor(sim, { externalId: sim.deviceId, signingKey: 'simdockKey' });
    const urls = pushUrls('http://127.0.0.1:9/p/gw-secret-1');
    const first = await driver.connect(urls);
    expect(first.warnings).toEqual([]);
    const hooks = sim.webhooks();
    expect(hooks.map((h) => h.event).sort()).toEqual(
      ['mms:downloaded', 'sms:delivered', 'sms:failed', 'sms:received', 'sms:sent', 'system:ping'].sort(),
    );
    for (const h of hooks) {
      expect(h.url).toBe(urls.base);
      expect(h.deviceId).toBe(sim.deviceId);
      expect(h.id.length).toBeLessThanOrEqual(36);
    }
    await driver.connect(urls);
    expect(sim.webhooks()).toHaveLength(6);
    expect(
      sim
        .webhooks()
        .map((h) => h.id)
        .sort(),
    ).toEqual(hooks.map((h) => h.id).sort());

    // Another gateway's URL registers its own six.
    await driver.connect(pushUrls('http://127.0.0.1:9/p/gw-secret-2'));
    expect(sim.webhooks()).toHaveLength(12);

    // Settings: a ping every minute; the signing key only where the phone's own API can set it.
    expect(sim.settings().ping).toEqual({ interval_seconds: 60 });
    expect(sim.currentSigningKey).toBe(mode === 'local' ? 'simdockKey' : PHONE_KEY);

    await driver.disconnect(urls);
    expect(sim.webhooks()).toHaveLength(6);
    expect(sim.webhooks().every((h) => h.url.endsWith('gw-secret-2'))).toBe(true);
    // Again: the phone answers 404 for each, which is ignored.
    await driver.disconnect(urls);
    expect(sim.webhooks()).toHaveLength(6);
  });

  it('sends each task to its SIM under the task id; a repeat is accepted, not sent twice', async () => {
    const sim = await phone(mode);
    const driver = driverFor(sim, { externalId: sim.deviceId });
    const urls = pushUrls('http://127.0.0.1:9/p/x');
    const out = await driver.sendTasks(
      [
        { tid: 101, to: '+84901111111', sms: 'From SIM 2', from: '2' },
        // Local numbers pass: the driver skips the phone's E.164 check.
        { tid: 102, to: '0901111111,0902222222', sms: 'Default SIM' },
      ],
      urls,
    );
    expect(out.map((o) => [o.tid, o.outcome])).toEqual([
      [101, 'accepted'],
      [102, 'accepted'],
    ]);
    const sent = sim.sentMessages();
    const byId = new Map(sent.map((m) => [m.id, m]));
    expect(byId.get('sd-101')).toMatchObject({ simNumber: 2, text: 'From SIM 2', withDeliveryReport: true });
    expect(byId.get('sd-101')?.recipients.map((r) => r.phoneNumber)).toEqual(['+84901111111']);
    expect(byId.get('sd-102')?.recipients.map((r) => r.phoneNumber)).toEqual(['0901111111', '0902222222']);
    // No SIM chosen: the phone's default (its first SIM).
    expect(byId.get('sd-102')?.simNumber).toBe(1);

    const again = await driver.sendTasks(
      [{ tid: 101, to: '+84901111111', sms: 'From SIM 2', from: '2' }],
      urls,
    );
    expect(again).toEqual([
      { tid: 101, outcome: 'accepted', deviceText: 'message with the same ID already exists' },
    ]);
    expect(sim.sentMessages()).toHaveLength(2);
  });

  it('a validation error is recipient_refused; an MMS is refused without calling the phone', async () => {
    const sim = await phone(mode);
    const driver = driverFor(sim);
    const out = await driver.sendTasks(
      [
        { tid: 1, to: '+84901111111', sms: '' },
        {
          tid: 2,
          to: '+84901111111',
          sms: 'pic',
          mms: { title: 'Hi', attachments: [{ type: 'jpg', data: new Uint8Array([1, 2]) }] },
        },
      ],
      pushUrls('http://127.0.0.1:9/p/x'),
    );
    expect(out).toEqual([
      { tid: 1, outcome: 'recipient_refused', deviceText: 'text must be 1-65535 characters' },
      {
        tid: 2,
        outcome: 'recipient_refused',
        deviceText: 'This phone cannot send MMS (SMSGate sends SMS only).',
      },
    ]);
    expect(sim.sentMessages()).toHaveLength(0);
  });

  it('a wrong password is an auth error on every call', async () => {
    const sim = await phone(mode);
    const driver = driverFor(sim, { password: 'wrong-pw' });
    const urls = pushUrls('http://127.0.0.1:9/p/x');
    for (const p of [
      driver.getStatus(),
      driver.connect(urls),
      driver.sendTasks([{ tid: 1, to: '+84901111111', sms: 'x' }], urls),
    ]) {
      const err = await failure(p);
      expect(err.kind).toBe('auth');
      expect(err.message).not.toContain('wrong-pw');
    }
    expect(sim.sentMessages()).toHaveLength(0);
    expect(sim.webhooks()).toHaveLength(0);
  });

  it("reads the phone's real webhooks: received, sent, delivered and failed", async () => {
    const { sim, r, driver } = await connected(mode);
    sim.setOutcome((m) =>
      m.phoneNumber === '+84902222222'
        ? { failed: 'Send result: RESULT_ERROR_RADIO_OFF (Radio off)' }
        : 'delivered',
    );
    const messageId = sim.injectSms({ slot: 2, from: '+84901234567', text: 'Your code is 1234' });
    const urls = pushUrls(r.url);
    await driver.sendTasks(
      [
        { tid: 7, to: '+84901111111', sms: 'ok', from: '1' },
        { tid: 8, to: '+84902222222', sms: 'radio off', from: '2' },
      ],
      urls,
    );
    sim.pingNow();
    await sim.webhooksSettled();

    const pushes = r.got.map((w) => driver.readPush(rawPush(w)));
    expect(new Set(pushes.map((p) => p.eventId)).size).toBe(pushes.length);
    const kinds = (k: DevicePush['kind']) => pushes.map((p) => p.push).filter((p) => p.kind === k);

    const sms = kinds('sms');
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({
      kind: 'sms',
      items: [
        {
          isReport: false,
          port: '2',
          sender: '+84901234567',
          recipient: '+84912345678',
          text: 'Your code is 1234',
          dedupeKey: expect.stringContaining(`smsgate:${sim.deviceId}:${messageId}:`),
        },
      ],
    });
    const ts = (sms[0] as { items: { ts: number | null }[] }).items[0]!.ts!;
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(60);

    const results = kinds('report').flatMap((p) => (p as { results: SendResult[] }).results);
    // sms:sent and sms:delivered for task 7 (the phone posts its webhooks concurrently: they may
    // arrive in either order), sms:failed for task 8.
    const byOutcome = (a: SendResult, b: SendResult) => a.outcome.localeCompare(b.outcome);
    expect(results.filter((x) => x.tid === 7).sort(byOutcome)).toEqual([
      { tid: 7, outcome: 'delivered', number: '+84901111111', port: '1', deviceText: '' },
      { tid: 7, outcome: 'sent', number: '+84901111111', port: '1', deviceText: '' },
    ]);
    expect(results.filter((x) => x.tid === 8)).toEqual([
      {
        tid: 8,
        outcome: 'sim_cannot_send',
        number: '+84902222222',
        port: '2',
        deviceText: 'Send result: RESULT_ERROR_RADIO_OFF (Radio off)',
      },
    ]);
    expect(kinds('alive')).toHaveLength(1);
  });
});

describe('SmsGateDriver, several phones in one account', () => {
  const others = [
    { id: 'OtherPhone00000000001', name: 'google/pixel7' },
    { id: 'GonePhone000000000001', name: 'xiaomi/old', deletedAt: '2026-01-02T00:00:00Z' },
  ];

  it.each(['cloud', 'private'] as const)(
    '%s: asks for the Device ID, then reads that phone',
    async (mode) => {
      const sim = await phone(mode, { otherDevices: others });
      const err = await failure(driverFor(sim).getStatus());
      expect(err.kind).toBe('refused');
      expect(err.message).toContain(`${sim.deviceId} (samsung/a52qnsxx)`);
      expect(err.message).toContain('OtherPhone00000000001 (google/pixel7)');
      expect(err.message).not.toContain('GonePhone');
      expect(err.message).toMatch(/Device ID/);

      const other = await driverFor(sim, { externalId: 'OtherPhone00000000001' }).getStatus();
      expect(other).toMatchObject({ externalId: 'OtherPhone00000000001', model: 'google/pixel7' });
      const mine = await driverFor(sim, { externalId: sim.deviceId }).getStatus();
      expect(mine.sims).toHaveLength(2);

      const gone = await failure(driverFor(sim, { externalId: 'GonePhone000000000001' }).getStatus());
      expect(gone.message).toContain('GonePhone000000000001 is not in this SMSGate account');
    },
  );

  it('a removed phone does not count: the only live one is picked', async () => {
    const sim = await phone('cloud', { otherDevices: [others[1]!] });
    expect((await driverFor(sim).getStatus()).externalId).toBe(sim.deviceId);
  });

  it('a send names the phone, so it goes to that phone only', async () => {
    const sim = await phone('cloud', { otherDevices: others });
    const driver = driverFor(sim, { externalId: 'OtherPhone00000000001' });
    const [o] = await driver.sendTasks([{ tid: 5, to: '+84901111111', sms: 'x' }], pushUrls('http://x/p'));
    expect(o?.outcome).toBe('accepted');
    expect(sim.sentMessages()[0]).toMatchObject({ id: 'sd-5', deviceId: 'OtherPhone00000000001' });
  });
});

describe('SmsGateDriver, what the phone says less often', () => {
  it('an older app without SIM reporting gives slot 1, not complete', async () => {
    const sim = await phone('cloud', { simReporting: false });
    const s = await driverFor(sim).getStatus();
    expect(s.complete).toBe(false);
    expect(s.sims).toMatchObject([{ slot: '1', state: 'ready', iccid: null, number: null }]);
  });

  it('queue limits (503) are device_busy with the server text', async () => {
    const sim = await phone('cloud', { maxPending: 1, stepMs: 60_000 });
    const driver = driverFor(sim);
    const [first] = await driver.sendTasks(
      [{ tid: 1, to: '+84901111111', sms: 'a' }],
      pushUrls('http://x/p'),
    );
    expect(first?.outcome).toBe('accepted');
    const [busy] = await driver.sendTasks([{ tid: 2, to: '+84901111111', sms: 'b' }], pushUrls('http://x/p'));
    expect(busy).toEqual({
      tid: 2,
      outcome: 'device_busy',
      deviceText: 'queue limits exceeded: too many pending messages: 1 / 1',
    });
  });

  it('sends many tasks, a few at a time, and answers them in order', async () => {
    const sim = await phone('local');
    const tasks = Array.from({ length: 11 }, (_, i) => ({ tid: 200 + i, to: '+84901111111', sms: `n${i}` }));
    const out = await driverFor(sim).sendTasks(tasks, pushUrls('http://x/p'));
    expect(out.map((o) => o.tid)).toEqual(tasks.map((t) => t.tid));
    expect(out.every((o) => o.outcome === 'accepted')).toBe(true);
    expect(sim.sentMessages()).toHaveLength(11);
  });

  it('a SIM that is not a phone slot is not sent', async () => {
    const sim = await phone('local');
    const [o] = await driverFor(sim).sendTasks(
      [{ tid: 1, to: '+84901111111', sms: 'x', from: '1.02' }],
      pushUrls('http://x/p'),
    );
    expect(o).toMatchObject({ tid: 1, outcome: 'sim_cannot_send' });
    expect(sim.sentMessages()).toHaveLength(0);
  });
});

describe('SmsGateDriver, connect problems', () => {
  it('a webhook URL the phone refuses fails connect with its words', async () => {
    const sim = await phone('cloud', { allowHttpWebhooks: false });
    const err = await failure(driverFor(sim).connect(pushUrls('http://127.0.0.1:9/p/x')));
    expect(err.kind).toBe('refused');
    expect(err.message).toContain('url must be https://');
  });

  it('no stored signing key fails connect with what to set, before any webhook is registered', async () => {
    for (const mode of ['cloud', 'private', 'local'] as const) {
      const sim = await phone(mode);
      const err = await failure(
        driverFor(sim, { signingKey: null }).connect(pushUrls('http://127.0.0.1:9/p/x')),
      );
      expect(err.kind, mode).toBe('refused');
      expect(err.message, mode).toMatch(/No signing key is stored for this phone/);
      expect(err.message, mode).toMatch(/Settings → Webhooks → Signing Key/);
      expect(sim.webhooks(), mode).toHaveLength(0);
    }
  });

  it('a signing key the phone does not take (Local) fails connect; other refused settings are warnings', async () => {
    // A Local-mode driver given a server's full API URL: the server refuses the Local-only key.
    const sim = await phone('private');
    const driver = driverFor(sim, { url: sim.baseUrl, mode: 'local', signingKey: 'simdockKey' });
    const err = await failure(driver.connect(pushUrls('http://127.0.0.1:9/p/x')));
    expect(err.kind).toBe('refused');
    expect(err.message).toContain("The phone did not take SimDock's signing key");
    expect(err.message).toContain('webhooks.signing_key can only be set on the phone');
    expect(err.message).toContain("gateway's Signing Key field");
    expect(sim.settings().ping).toEqual({ interval_seconds: 60 });
  });

  it('Local: after connect the phone signs with the stored key', async () => {
    const { sim, r, driver } = await connected('local', {}, { signingKey: 'simdockKey' });
    sim.pingNow();
    await sim.webhooksSettled();
    expect(sim.currentSigningKey).toBe('simdockKey');
    expect(driver.readPush(rawPush(r.got[0]!)).push).toEqual({ kind: 'alive' });
  });
});

describe('SmsGateDriver, transport', () => {
  async function closedPort(): Promise<number> {
    const s = createHttpServer();
    await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
    const port = (s.address() as AddressInfo).port;
    await new Promise<void>((ok) => s.close(() => ok()));
    return port;
  }

  it('an unreachable phone is a network error that names neither URL nor password', async () => {
    const port = await closedPort();
    const driver = new SmsGateDriver(
      {
        url: `http://127.0.0.1:${port}`,
        username: 'sms',
        password: 'S3cretPw',
        mode: 'local',
        externalId: null,
        signingKey: 'k3y',
      },
      { timeoutMs: 1000 },
    );
    const urls = pushUrls('http://x/p');
    for (const p of [
      driver.getStatus(),
      driver.sendTasks([{ tid: 1, to: '+849', sms: 'x' }], urls),
      driver.connect(urls),
    ]) {
      const err = await failure(p);
      expect(err.kind).toBe('network');
      expect(err.message).toBe('connection refused');
    }
    await expect(driver.disconnect(urls)).resolves.toBeUndefined();
  });

  it('a phone that does not answer in time is a timeout', async () => {
    const sockets = new Set<Socket>();
    const silent = createTcpServer((s) => sockets.add(s));
    await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', ok));
    cleanup.push(async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => silent.close(() => ok()));
    });
    const driver = new SmsGateDriver(
      {
        url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        username: 'sms',
        password: 'pw',
        mode: 'cloud',
        externalId: null,
        signingKey: null,
      },
      { timeoutMs: 200 },
    );
    const err = await failure(driver.getStatus());
    expect(err.kind).toBe('timeout');
    expect(err.message).toMatch(/0\.2 s/);
  });

  it('an unknown mode is refused before any call', async () => {
    const sim = await phone('local');
    const err = await failure(driverFor(sim, { mode: 'usb' }).getStatus());
    expect(err.kind).toBe('refused');
  });
});

describe('SmsGateDriver.readPush trust', () => {
  async function oneWebhook(mode: Mode) {
    const ctx = await connected(mode);
    ctx.sim.injectSms({ slot: 1, from: '+84901234567', text: 'Code 9876' });
    await ctx.sim.webhooksSettled();
    const w = ctx.r.got[0];
    if (!w) throw new Error('no webhook arrived');
    return { ...ctx, w };
  }

  it.each(MODES)(
    '%s: a valid push reads; forged, wrong-key, stale and unsigned ones are refused',
    async (mode) => {
      const { sim, driver, w } = await oneWebhook(mode);
      const ts = Number(w.headers['x-timestamp']);
      const at = (s: number) => new Date(s * 1000);
      expect(driver.readPush(rawPush(w, at(ts))).push).toMatchObject({
        kind: 'sms',
        items: [{ text: 'Code 9876' }],
      });

      // ±300 s is the window, both ways.
      expect(() => driver.readPush(rawPush(w, at(ts + 300)))).not.toThrow();
      expect(() => driver.readPush(rawPush(w, at(ts - 300)))).not.toThrow();
      expect(refused(() => driver.readPush(rawPush(w, at(ts + 301))))).toMatch(/301 s old/);
      expect(refused(() => driver.readPush(rawPush(w, at(ts - 301))))).toMatch(/301 s ahead/);

      const forged = { ...w, headers: { ...w.headers, 'x-signature': 'ab'.repeat(32) } };
      expect(refused(() => driver.readPush(rawPush(forged)))).toMatch(/does not match/);
      const changed = { ...w, body: Buffer.from(w.raw.replace('9876', '0000')) };
      expect(refused(() => driver.readPush(rawPush(changed)))).toMatch(/does not match/);
      const otherKey = driverFor(sim, { externalId: sim.deviceId, signingKey: 'notTheKey' });
      expect(refused(() => otherKey.readPush(rawPush(w)))).toMatch(/does not match/);
      const noKey = driverFor(sim, { externalId: sim.deviceId, signingKey: null });
      expect(refused(() => noKey.readPush(rawPush(w)))).toMatch(/No signing key/);

      const { 'x-signature': _s, ...noSig } = w.headers;
      expect(refused(() => driver.readPush(rawPush({ ...w, headers: noSig })))).toMatch(/X-Signature/);
      const { 'x-timestamp': _t, ...noTs } = w.headers;
      expect(refused(() => driver.readPush(rawPush({ ...w, headers: noTs })))).toMatch(/X-Timestamp/);
    },
  );

  it('a push from another phone is refused, naming both ids', async () => {
    const { sim, w } = await oneWebhook('cloud');
    const driver = driverFor(sim, { externalId: 'SomeOtherPhone0000001' });
    expect(refused(() => driver.readPush(rawPush(w)))).toBe(
      `The push is from phone ${sim.deviceId}, but this gateway is phone SomeOtherPhone0000001.`,
    );
  });

  it('a push to a named channel is not SMSGate', async () => {
    const { driver, w } = await oneWebhook('local');
    expect(() => driver.readPush(rawPush(w, new Date(), 'sms'))).toThrow(ProtocolError);
    expect(() => driver.readPush(rawPush(w, new Date(), 'sms'))).toThrow(
      "An SMSGate phone pushes to the gateway's URL, not to /sms",
    );
  });

  it('mms:downloaded from the phone arrives as an SMS with its picture', async () => {
    const { sim, r, driver } = await connected('private');
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 9, 9]);
    sim.injectMms({
      slot: 1,
      from: '+84901234567',
      subject: 'Photo',
      parts: [
        { contentType: 'application/smil', name: 'smil.xml', data: Buffer.from('<smil/>') },
        { contentType: 'image/png', name: 'a.png', data: png },
      ],
    });
    await sim.webhooksSettled();
    const { push } = driver.readPush(rawPush(r.got[0]!));
    expect(push).toMatchObject({
      kind: 'sms',
      items: [{ port: '1', sender: '+84901234567', text: '[MMS] Photo' }],
    });
    const item = (push as { items: { attachments?: unknown }[] }).items[0];
    expect(item?.attachments).toEqual([{ contentType: 'image/png', data: png }]);
  });
});

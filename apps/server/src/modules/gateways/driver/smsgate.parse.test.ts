import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GatewayError, ProtocolError, PushRefused } from './driver.ts';
import {
  answerText,
  apiBase,
  canonicalSlot,
  deviceStatus,
  failureOutcome,
  healthVersion,
  isoSeconds,
  MAX_SKEW_S,
  messageBody,
  parseDevices,
  parseTid,
  parseWebhook,
  pickDevice,
  sendOutcome,
  simNumberDigits,
  verifySignature,
  webhookId,
} from './smsgate.parse.ts';

const hook = (event: string, payload: unknown, extra: Record<string, unknown> = {}) =>
  Buffer.from(JSON.stringify({ deviceId: 'dev1', event, id: 'evt-1', webhookId: 'w', payload, ...extra }));

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PushRefused);
    return (err as Error).message;
  }
  throw new Error('expected PushRefused');
}

describe('simNumberDigits', () => {
  it.each([
    ['+84 907 654 321', '84907654321'],
    ['+1 (202) 555-0147', '12025550147'],
    ['0901234567', '0901234567'],
    ['not a number', null],
    ['', null],
    [null, null],
  ])('%j → %j', (raw, digits) => {
    expect(simNumberDigits(raw)).toBe(digits);
  });
});

describe('apiBase', () => {
  it("adds the mode's API path only to a bare host URL", () => {
    expect(apiBase('http://192.168.1.5:8080', 'local')).toBe('http://192.168.1.5:8080');
    expect(apiBase('http://192.168.1.5:8080/', 'local')).toBe('http://192.168.1.5:8080');
    expect(apiBase('https://api.sms-gate.app', 'cloud')).toBe('https://api.sms-gate.app/3rdparty/v1');
    expect(apiBase('https://sms.example.com/', 'private')).toBe('https://sms.example.com/api/3rdparty/v1');
    expect(apiBase('https://api.sms-gate.app/3rdparty/v1/', 'cloud')).toBe(
      'https://api.sms-gate.app/3rdparty/v1',
    );
    expect(apiBase('https://proxy.example.com/phone1', 'local')).toBe('https://proxy.example.com/phone1');
  });

  it('drops credentials, query and fragment; refuses what is not http(s)', () => {
    expect(apiBase('http://u:p@host:8080/?x=1#y', 'local')).toBe('http://host:8080');
    expect(apiBase('ftp://host', 'local')).toBeNull();
    expect(apiBase('not a url', 'cloud')).toBeNull();
  });
});

describe('canonicalSlot', () => {
  it('reads a SIM number 1-3 as people write it', () => {
    for (const [raw, slot] of [
      ['1', '1'],
      [' 2 ', '2'],
      ['SIM 2', '2'],
      ['sim2', '2'],
      ['Sim 3', '3'],
    ]) {
      expect(canonicalSlot(raw as string)).toBe(slot);
    }
    for (const raw of ['0', '4', '1.01', 'SIM', '', '12', 'slot 1'])
      expect(canonicalSlot(raw)).toBeUndefined();
  });
});

describe('devices', () => {
  const cloudDevice = {
    id: 'PyDmBQZZXYmyxMwED8Fzy',
    name: 'samsung/a52qnsxx',
    simCards: [
      {
        slotIndex: 1,
        simNumber: 2,
        phoneNumber: '********5678',
        carrierName: '*****hone',
        iccid: '****6543',
      },
      {
        slotIndex: 0,
        simNumber: 1,
        phoneNumber: '+84907654321',
        carrierName: 'Viettel',
        iccid: '8984041234',
      },
    ],
  };

  it('maps SIM cards to slots "1".."3", keeping a masked ICCID and dropping masked numbers', () => {
    const [d] = parseDevices([cloudDevice]);
    const s = deviceStatus(d!, null);
    expect(s).toMatchObject({
      externalId: 'PyDmBQZZXYmyxMwED8Fzy',
      model: 'samsung/a52qnsxx',
      ip: null,
      firmware: null,
      maxPorts: 1,
      maxSlots: null,
      complete: true,
    });
    expect(s.sims).toEqual([
      {
        slot: '1',
        state: 'ready',
        deviceState: null,
        iccid: '8984041234',
        imsi: null,
        imei: null,
        // Digits, as the platform keeps device numbers.
        number: '84907654321',
        operator: 'Viettel',
        signal: null,
        balance: null,
        active: true,
      },
      {
        slot: '2',
        state: 'ready',
        deviceState: null,
        iccid: '****6543',
        imsi: null,
        imei: null,
        number: null,
        operator: null,
        signal: null,
        balance: null,
        active: true,
      },
    ]);
  });

  it('an app without SIM reporting gives one unknown SIM in slot 1, not complete', () => {
    for (const simCards of [undefined, []]) {
      const [d] = parseDevices([{ id: 'x', name: 'n', ...(simCards ? { simCards } : {}) }]);
      const s = deviceStatus(d!, '1.2.3');
      expect(s.complete).toBe(false);
      expect(s.firmware).toBe('1.2.3');
      expect(s.sims).toHaveLength(1);
      expect(s.sims[0]).toMatchObject({ slot: '1', state: 'ready', iccid: null, number: null, active: true });
    }
  });

  it('takes slotIndex + 1 when simNumber is missing and skips nonsense entries', () => {
    const [d] = parseDevices([{ id: 'x', simCards: [{ slotIndex: 2 }, { simNumber: 9 }, 'junk', null] }]);
    expect(deviceStatus(d!, null).sims.map((s) => s.slot)).toEqual(['3']);
  });

  it('reads a lone object as a list and refuses devices without an id', () => {
    expect(parseDevices({ id: 'abc' })).toHaveLength(1);
    expect(() => parseDevices([{ name: 'x' }])).toThrow(ProtocolError);
    expect(() => parseDevices('x')).toThrow(ProtocolError);
  });

  it('picks the known phone, or the only one; otherwise explains', () => {
    const devices = parseDevices([
      { id: 'aaa', name: 'samsung/a52' },
      { id: 'bbb', name: 'google/pixel' },
      { id: 'ccc', name: 'gone', deletedAt: '2026-01-01T00:00:00Z' },
    ]);
    expect(pickDevice(devices, 'bbb').id).toBe('bbb');
    expect(pickDevice(devices.slice(0, 1), null).id).toBe('aaa');
    expect(pickDevice([devices[0]!, devices[2]!], null).id).toBe('aaa');

    const several = () => pickDevice(devices, null);
    expect(several).toThrow(GatewayError);
    expect(several).toThrow('aaa (samsung/a52), bbb (google/pixel)');
    expect(several).toThrow(/Device ID/);
    expect(() => pickDevice(devices, 'ccc')).toThrow(/Phone ccc is not in this SMSGate account/);
    expect(() => pickDevice([], null)).toThrow(/No phone has joined this account yet/);
    try {
      pickDevice([], 'zzz');
    } catch (err) {
      expect((err as GatewayError).kind).toBe('refused');
    }
  });

  it('reads the app version from health', () => {
    expect(healthVersion({ status: 'pass', version: '1.40.0' })).toBe('1.40.0');
    expect(healthVersion({ status: 'pass' })).toBeNull();
    expect(healthVersion('x')).toBeNull();
  });
});

describe('sending', () => {
  it('builds the message body with the task id, SIM number and delivery report', () => {
    expect(messageBody({ tid: 42, to: '+8490111, +8490222,', sms: 'Hi', from: '2' }, 'dev1')).toEqual({
      id: 'sd-42',
      deviceId: 'dev1',
      textMessage: { text: 'Hi' },
      phoneNumbers: ['+8490111', '+8490222'],
      simNumber: 2,
      withDeliveryReport: true,
    });
    expect(messageBody({ tid: 1, to: '+8490111', sms: 'x' }, null)).toEqual({
      id: 'sd-1',
      textMessage: { text: 'x' },
      phoneNumbers: ['+8490111'],
      withDeliveryReport: true,
    });
    expect(messageBody({ tid: 1, to: '+8490111', sms: 'x', from: '1.01' }, null)).toBeNull();
  });

  it('maps answers to outcomes', () => {
    expect(sendOutcome(202)).toBe('accepted');
    expect(sendOutcome(409)).toBe('accepted');
    expect(sendOutcome(400)).toBe('recipient_refused');
    expect(sendOutcome(503)).toBe('device_busy');
    expect(sendOutcome(500)).toBe('device_busy');
    expect(sendOutcome(502)).toBe('device_busy');
    expect(sendOutcome(429)).toBe('device_busy');
    expect(sendOutcome(401)).toBe('auth');
    expect(sendOutcome(403)).toBe('auth');
    expect(sendOutcome(404)).toBe('unexpected');
  });

  it("takes the answer's {message}, else the status", () => {
    expect(answerText(409, '{"message":"message with the same ID already exists"}')).toBe(
      'message with the same ID already exists',
    );
    expect(answerText(400, '')).toBe('HTTP 400');
    expect(answerText(500, '<html>')).toBe('HTTP 500');
    expect(answerText(202, '{"id":"sd-1","state":"Pending"}')).toBe('HTTP 202');
  });

  it('webhook ids are stable, short, and differ per URL and event', () => {
    const a = webhookId('https://simdock.example/p/secret-a', 'mms:downloaded');
    expect(a).toBe(webhookId('https://simdock.example/p/secret-a', 'mms:downloaded'));
    expect(a.length).toBeLessThanOrEqual(36);
    expect(a).not.toBe(webhookId('https://simdock.example/p/secret-b', 'mms:downloaded'));
    expect(a).not.toBe(webhookId('https://simdock.example/p/secret-a', 'sms:received'));
    // The id shows nothing of the secret URL.
    expect(a).not.toContain('secret');
  });

  it('reads our task id back from a message id only', () => {
    expect(parseTid('sd-17')).toBe(17);
    expect(parseTid('sd-0')).toBeUndefined();
    expect(parseTid('sd-17-x')).toBeUndefined();
    expect(parseTid('PyDmBQZZXYmyxMwED8Fzy')).toBeUndefined();
    expect(parseTid('sd-99999999999999999')).toBeUndefined();
    expect(parseTid(17)).toBeUndefined();
  });
});

describe('verifySignature', () => {
  const key = 'k3yS1gn!';
  const body = hook('system:ping', { health: { status: 'pass' } });
  const ts = 1_780_000_000;
  const sig = (k: string, b: Buffer, t: string) => createHmac('sha256', k).update(b).update(t).digest('hex');
  const headers = (over: Record<string, string | undefined> = {}) => ({
    'x-signature': sig(key, body, String(ts)),
    'x-timestamp': String(ts),
    ...over,
  });
  const at = (s: number) => new Date(s * 1000);

  it('accepts a good signature within ±300 s, upper-case hex too', () => {
    expect(() => verifySignature(key, headers(), body, at(ts))).not.toThrow();
    expect(() => verifySignature(key, headers(), body, at(ts + MAX_SKEW_S))).not.toThrow();
    expect(() =>
      verifySignature(key, headers(), body, new Date((ts - MAX_SKEW_S) * 1000 + 999)),
    ).not.toThrow();
    const upper = headers({ 'x-signature': sig(key, body, String(ts)).toUpperCase() });
    expect(() => verifySignature(key, upper, body, at(ts))).not.toThrow();
  });

  it('refuses a missing key, missing headers, a bad or stale timestamp and any mismatch', () => {
    expect(refusal(() => verifySignature(null, headers(), body, at(ts)))).toMatch(/No signing key/);
    expect(refusal(() => verifySignature(key, headers({ 'x-signature': undefined }), body, at(ts)))).toMatch(
      /X-Signature/,
    );
    expect(refusal(() => verifySignature(key, headers({ 'x-timestamp': undefined }), body, at(ts)))).toMatch(
      /X-Timestamp/,
    );
    expect(refusal(() => verifySignature(key, headers({ 'x-timestamp': '17e8' }), body, at(ts)))).toMatch(
      /not unix seconds/,
    );
    expect(refusal(() => verifySignature(key, headers(), body, at(ts + MAX_SKEW_S + 1)))).toMatch(
      /301 s old/,
    );
    expect(refusal(() => verifySignature(key, headers(), body, at(ts - MAX_SKEW_S - 1)))).toMatch(
      /301 s ahead/,
    );
    expect(refusal(() => verifySignature('other', headers(), body, at(ts)))).toMatch(/does not match/);
    const changed = Buffer.from(body.toString().replace('pass', 'fail'));
    expect(refusal(() => verifySignature(key, headers(), changed, at(ts)))).toMatch(/does not match/);
    expect(refusal(() => verifySignature(key, headers({ 'x-signature': 'zz' }), body, at(ts)))).toMatch(
      /does not match/,
    );
    // A timestamp that is not the one signed.
    const moved = headers({ 'x-timestamp': String(ts + 1) });
    expect(refusal(() => verifySignature(key, moved, body, at(ts)))).toMatch(/does not match/);
  });
});

describe('parseWebhook', () => {
  const received = {
    messageId: '3fa2c1b0',
    message: 'Hello',
    sender: '+84901234567',
    recipient: '+84907654321',
    phoneNumber: '+84901234567',
    simNumber: 2,
    receivedAt: '2026-05-01T10:00:00.000+07:00',
  };

  it('sms:received is one incoming SMS with a dedupe key', () => {
    expect(parseWebhook(hook('sms:received', received), 'dev1')).toEqual({
      eventId: 'evt-1',
      push: {
        kind: 'sms',
        items: [
          {
            isReport: false,
            port: '2',
            ts: Date.UTC(2026, 4, 1, 3, 0, 0) / 1000,
            sender: '+84901234567',
            recipient: '+84907654321',
            text: 'Hello',
            dedupeKey: 'smsgate:dev1:3fa2c1b0:2026-05-01T10:00:00.000+07:00',
          },
        ],
      },
    });
    const noSim = parseWebhook(hook('sms:received', { ...received, simNumber: null, recipient: null }), null);
    expect(noSim.push).toMatchObject({ kind: 'sms', items: [{ port: '1', recipient: null }] });
  });

  it('mms:downloaded keeps the files and leaves layout and text parts out', () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 1, 2]);
    const mms = (body: string, subject: string | null) =>
      parseWebhook(
        hook('mms:downloaded', {
          messageId: 'm1',
          sender: '+84901234567',
          recipient: null,
          simNumber: 1,
          subject,
          body,
          receivedAt: '2026-05-01T10:00:00.000+07:00',
          attachments: [
            {
              partId: 1,
              contentType: 'application/smil',
              name: 's',
              size: 7,
              data: Buffer.from('<smil/>').toString('base64'),
            },
            {
              partId: 2,
              contentType: 'text/plain',
              name: 't',
              size: 4,
              data: Buffer.from('Look').toString('base64'),
            },
            {
              partId: 3,
              contentType: 'image/JPEG; name=a.jpg',
              name: 'a.jpg',
              size: 5,
              data: jpeg.toString('base64'),
            },
            { partId: 4, contentType: 'image/png', name: 'big.png', size: 9000000 },
          ],
        }),
        null,
      ).push;
    const push = mms('Look', 'Photo');
    if (push.kind !== 'sms') throw new Error(push.kind);
    expect(push.items[0]).toMatchObject({
      text: 'Look',
      port: '1',
      dedupeKey: expect.stringMatching(/^smsgate:dev1:m1:/),
    });
    expect(push.items[0]!.attachments).toEqual([{ contentType: 'image/jpeg', data: new Uint8Array(jpeg) }]);
    expect(mms('', 'Photo')).toMatchObject({ items: [{ text: '[MMS] Photo' }] });
    expect(mms('', null)).toMatchObject({ items: [{ text: '' }] });
  });

  it('sms:sent reports our task as sent (the carrier took it), sms:delivered as delivered (the handset)', () => {
    for (const [event, outcome] of [
      ['sms:sent', 'sent'],
      ['sms:delivered', 'delivered'],
    ] as const) {
      const r = parseWebhook(
        hook(event, { messageId: 'sd-42', sender: null, recipient: '+84901111111', simNumber: 2 }),
        'dev1',
      );
      expect(r).toEqual({
        eventId: 'evt-1',
        push: {
          kind: 'report',
          results: [{ tid: 42, outcome, number: '+84901111111', port: '2', deviceText: '' }],
        },
      });
    }
    const noSim = parseWebhook(
      hook('sms:sent', { messageId: 'sd-42', recipient: '+849', simNumber: null }),
      null,
    );
    expect(noSim.push).toMatchObject({ results: [{ port: '' }] });
  });

  it('sms:failed says whether the SIM could not send, with the reason', () => {
    const failed = (reason: string) =>
      parseWebhook(hook('sms:failed', { messageId: 'sd-7', recipient: '+849', simNumber: 1, reason }), null)
        .push;
    expect(failed('Send result: RESULT_ERROR_RADIO_OFF (Radio off)')).toMatchObject({
      results: [
        { tid: 7, outcome: 'sim_cannot_send', deviceText: 'Send result: RESULT_ERROR_RADIO_OFF (Radio off)' },
      ],
    });
    expect(failed('Send result: RESULT_ERROR_GENERIC_FAILURE (Generic failure cause)')).toMatchObject({
      results: [{ outcome: 'failed' }],
    });
    expect(
      parseWebhook(hook('sms:cancelled', { messageId: 'sd-7', recipient: '+849' }), null).push,
    ).toMatchObject({
      kind: 'report',
      results: [{ tid: 7, outcome: 'failed', deviceText: 'Cancelled on the phone' }],
    });
  });

  it('classifies failure reasons', () => {
    for (const r of [
      'Send result: RESULT_ERROR_RADIO_OFF (Radio off)',
      'Send result: RESULT_ERROR_NO_SERVICE (No service)',
      'Send result: RESULT_ERROR_LIMIT_EXCEEDED (Limit exceeded)',
      'Send result: RESULT_RIL_RADIO_NOT_AVAILABLE',
      'Send result: RESULT_RIL_SIM_ABSENT',
      "Can't send message: No SIMs found",
      "Can't send message: SIM 3 not found",
    ]) {
      expect(failureOutcome(r)).toBe('sim_cannot_send');
    }
    for (const r of [
      'Send result: RESULT_ERROR_GENERIC_FAILURE (Generic failure cause)',
      'Send result: RESULT_ERROR_SHORT_CODE_NOT_ALLOWED',
      'Delivery result from SC +84980200030: 65',
      'TTL expired',
    ]) {
      expect(failureOutcome(r)).toBe('failed');
    }
  });

  it("someone else's message, a ping and unknown events are signs of life", () => {
    expect(parseWebhook(hook('sms:sent', { messageId: 'PyDmBQZZ', recipient: '+849' }), null).push).toEqual({
      kind: 'alive',
    });
    expect(parseWebhook(hook('system:ping', { health: {} }), null)).toEqual({
      eventId: 'evt-1',
      push: { kind: 'alive' },
    });
    expect(parseWebhook(hook('app:started', { simCards: [] }), null).push).toEqual({ kind: 'alive' });
    expect(parseWebhook(hook('sms:future-thing', 'whatever'), null).push).toEqual({ kind: 'alive' });
  });

  it('refuses a push from another phone, naming both', () => {
    expect(refusal(() => parseWebhook(hook('system:ping', {}), 'dev2'))).toBe(
      'The push is from phone dev1, but this gateway is phone dev2.',
    );
  });

  it('throws ProtocolError on bodies that do not follow the protocol', () => {
    expect(() => parseWebhook(Buffer.from('not json'), null)).toThrow(ProtocolError);
    expect(() => parseWebhook(Buffer.from('[1]'), null)).toThrow(ProtocolError);
    expect(() => parseWebhook(Buffer.from('{"deviceId":"d"}'), null)).toThrow(/no event/);
    expect(() => parseWebhook(Buffer.from('{"event":"system:ping"}'), null)).toThrow(/no deviceId/);
    expect(() => parseWebhook(hook('sms:received', null), null)).toThrow(/no payload/);
    expect(() => parseWebhook(hook('sms:received', { ...received, message: 5 }), null)).toThrow(/no message/);
  });

  it('reads ISO times with offsets and milliseconds', () => {
    expect(isoSeconds('2026-05-01T10:00:00.999+07:00')).toBe(Date.UTC(2026, 4, 1, 3) / 1000);
    expect(isoSeconds('soon')).toBeNull();
    expect(isoSeconds(undefined)).toBeNull();
  });
});

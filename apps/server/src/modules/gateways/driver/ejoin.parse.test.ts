import { describe, expect, it } from 'vitest';
import { ProtocolError } from './driver.ts';
import {
  decodeContent,
  ejoinSimState,
  isAuthFailure,
  leadingInt,
  normalizePort,
  parseDevStatus,
  parsePortEntry,
  parseRecvSms,
  parseRecvSmsText,
  parseReply,
  parseStatusReport,
  slotIndex,
} from './ejoin.parse.ts';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('ports', () => {
  it.each([
    ['1.01', '1.01', 1, 1],
    ['32.04', '32.04', 32, 4],
    ['3.2', '3.02', 3, 2],
    ['1A', '1.01', 1, 1],
    ['1B', '1.02', 1, 2],
    ['61a', '61.01', 61, 1],
    ['7', '7.01', 7, 1],
    [7, '7.01', 7, 1],
    [' 2.01 ', '2.01', 2, 1],
  ])('normalizes %j to %s', (raw, port, portNo, slotNo) => {
    expect(normalizePort(raw)).toEqual({ port, portNo, slotNo });
  });

  it.each(['', 'x', '0.01', '1.00', '1-4', 'all', null, undefined, {}])('refuses %j', (raw) => {
    expect(normalizePort(raw)).toBeUndefined();
  });

  it('numbers slots across the device for sim_number(n)', () => {
    expect(slotIndex(1, 1, 1)).toBe(0);
    expect(slotIndex(3, 1, 1)).toBe(2);
    expect(slotIndex(2, 3, 4)).toBe(6);
    expect(slotIndex(1, 2, 32)).toBe(1);
  });

  it('reads the leading integer of st and task status texts', () => {
    expect(leadingInt(3)).toBe(3);
    expect(leadingInt('3 OK')).toBe(3);
    expect(leadingInt(' 6 Timeout')).toBe(6);
    expect(leadingInt('OK')).toBeUndefined();
    expect(leadingInt(null)).toBeUndefined();
  });
});

describe('parsePortEntry', () => {
  const full = {
    port: '1.01',
    sim: '',
    seq: 18566,
    st: 3,
    imei: '862032045299211',
    iccid: '89014102211234567890',
    imsi: '310260123456789',
    sn: '12025550101',
    opr: '310260 T-Mobile',
    bal: '0.00',
    sig: 21,
  };

  it('reads a registered slot', () => {
    expect(parsePortEntry(full)).toEqual({
      slot: '1.01',
      portNo: 1,
      slotNo: 1,
      state: 'ready',
      deviceState: 'Registered',
      iccid: '89014102211234567890',
      imsi: '310260123456789',
      imei: '862032045299211',
      number: '12025550101',
      operator: '310260 T-Mobile',
      signal: 21,
      balance: '0.00',
      active: null,
    });
  });

  it('accepts st as "3 OK" text and under the key status (port-status example)', () => {
    expect(parsePortEntry({ ...full, st: '3 OK' }).state).toBe('ready');
    const { st: _st, ...rest } = full;
    expect(parsePortEntry({ ...rest, type: 'port-status', status: '4 Call Connected' }).state).toBe('busy');
    expect(parsePortEntry({ ...rest, status: 15 }).state).toBe('busy');
  });

  it('accepts the letter form of the port', () => {
    expect(parsePortEntry({ ...full, port: '2B' }).slot).toBe('2.02');
  });

  it('treats an empty slot as no SIM and keeps nothing of a card', () => {
    const e = parsePortEntry({ port: '5.01', sim: '', seq: 2124, st: 0, imei: '862032045299252' });
    expect(e).toMatchObject({
      slot: '5.01',
      state: 'empty',
      iccid: null,
      number: null,
      imei: '862032045299252',
    });
  });

  it('blank sn is an unknown number; "0 " operator is no operator', () => {
    const e = parsePortEntry({ ...full, st: 6, sn: '', opr: '0 ', sig: '0' });
    expect(e).toMatchObject({
      state: 'blocked',
      deviceState: 'Registration failed',
      number: null,
      operator: null,
      signal: 0,
    });
  });

  it('trusts inserted:0 of newer firmware and reads active', () => {
    expect(parsePortEntry({ ...full, inserted: 0 }).state).toBe('empty');
    expect(parsePortEntry({ ...full, active: 1 }).active).toBe(true);
    expect(parsePortEntry({ ...full, active: 0 }).active).toBe(false);
  });

  it('missing st is no SIM; a missing port is a protocol error', () => {
    expect(parsePortEntry({ port: '1.01' }).state).toBe('empty');
    expect(() => parsePortEntry({ st: 3 })).toThrow(ProtocolError);
    expect(() => parsePortEntry('x')).toThrow(ProtocolError);
  });
});

describe("the box's SIM states in the platform's words", () => {
  // Usable were 3, 4 and 15; 5–9 and 12 lock the SIM; 0 is no SIM: the platform states keep that.
  it.each([
    [0, 'empty', 'No SIM'],
    [1, 'starting', 'Idle SIM'],
    [2, 'starting', 'Registering'],
    [3, 'ready', 'Registered'],
    [4, 'busy', 'Call connected'],
    [5, 'blocked', 'No balance / alarm'],
    [6, 'blocked', 'Registration failed'],
    [7, 'blocked', 'Locked by device'],
    [8, 'blocked', 'Locked by operator'],
    [9, 'blocked', 'SIM error'],
    [11, 'starting', 'Card detected'],
    [12, 'blocked', 'User locked'],
    [13, 'unknown', 'Inter-calling'],
    [14, 'unknown', 'Inter-calling hold'],
    [15, 'busy', 'Accessing mobile network'],
    [16, 'unknown', 'Module timeout'],
    [10, 'unknown', 'State 10'],
    [42, 'unknown', 'State 42'],
  ] as const)('st %i is %s (%s)', (st, state, deviceState) => {
    expect(ejoinSimState(st)).toEqual({ state, deviceState });
    expect(parsePortEntry({ port: '1.01', st })).toMatchObject({ state, deviceState });
  });
});

describe('parseDevStatus', () => {
  // Abridged from a real device: max-slot, ver, expires -1, numeric st.
  const real = {
    type: 'dev-status',
    seq: 2124,
    expires: -1,
    mac: '00-30-f1-00-b7-d5',
    ip: '192.168.1.111',
    ver: '608-520-840-841-100-0F0',
    'max-ports': 8,
    'max-slot': 32,
    status: [
      {
        port: '5.01',
        sim: '',
        seq: 2124,
        st: 0,
        imei: '862032045299252',
      },
      {
        port: '1.01',
        sim: '',
        seq: 18566,
        st: 6,
        imei: '862032045299211',
        iccid: '42402117840804563386',
        imsi: '001012345678901',
        sn: '',
        opr: '0 ',
        bal: '0.00',
        sig: 0,
      },
    ],
  };

  it('reads a real capture, normalizing the mac and sorting ports', () => {
    const d = parseDevStatus(real);
    expect(d).toMatchObject({
      externalId: '00:30:f1:00:b7:d5',
      ip: '192.168.1.111',
      firmware: '608-520-840-841-100-0F0',
      maxPorts: 8,
      maxSlots: 32,
      // Two of 256 slots listed: slots not listed are not known to be gone.
      complete: false,
    });
    expect(d.sims.map((p) => [p.slot, p.state])).toEqual([
      ['1.01', 'blocked'],
      ['5.01', 'empty'],
    ]);
  });

  it('accepts max-slots (the spec spelling) and a missing type', () => {
    const { 'max-slot': _ms, type: _t, ...rest } = real;
    expect(parseDevStatus({ ...rest, 'max-slots': 4 }).maxSlots).toBe(4);
  });

  it('skips an unreadable entry instead of failing the report', () => {
    const d = parseDevStatus({ ...real, status: [{ nope: 1 }, ...real.status] });
    expect(d.sims).toHaveLength(2);
  });

  it('refuses another type or a missing mac', () => {
    expect(() => parseDevStatus({ ...real, type: 'port-status' })).toThrow(ProtocolError);
    expect(() => parseDevStatus({ ...real, mac: 'zz' })).toThrow(/mac/);
    expect(() => parseDevStatus([])).toThrow(ProtocolError);
  });
});

describe('parseRecvSms', () => {
  it('reads recv-sms rows with base64 UTF-8 content', () => {
    const items = parseRecvSms({
      type: 'recv-sms',
      sms_num: 2,
      sms: [
        [0, '1.01', 1466506477, '10010', '13265825775', b64('Your code is 123456')],
        [0, '2B', '1466506478', '+15550001', '', b64('Привет 👋')],
      ],
    });
    expect(items).toEqual([
      {
        isReport: false,
        port: '1.01',
        ts: 1466506477,
        sender: '10010',
        recipient: '13265825775',
        text: 'Your code is 123456',
      },
      {
        isReport: false,
        port: '2.02',
        ts: 1466506478,
        sender: '+15550001',
        recipient: null,
        text: 'Привет 👋',
      },
    ]);
  });

  it('reads a delivery receipt row (flag 1, plain "<code> <scts>")', () => {
    const [r] = parseRecvSms({
      type: 'recv-sms',
      sms: [[1, '1.01', 1466506500, '+12063130004', '15551234567', '0 16/06/21,10:54:37+00']],
    });
    expect(r).toMatchObject({
      isReport: true,
      sender: '+12063130004',
      recipient: '15551234567',
      text: '0 16/06/21,10:54:37+00',
    });
  });

  it('keeps content that is not base64 as it came', () => {
    const [r] = parseRecvSms({ sms: [[0, '1.01', 1, 'x', '', 'Hello there!']] });
    expect(r!.text).toBe('Hello there!');
    expect(decodeContent('Test')).toBe('Test'); // valid base64, but not UTF-8
  });

  it('skips malformed rows', () => {
    const items = parseRecvSms({
      sms: [[0, 'bad', 1, 'x', '', b64('a')], [0, '1.01'], 'junk', [0, '1.01', 1, 'x', '', b64('ok')]],
    });
    expect(items.map((i) => i.text)).toEqual(['ok']);
  });

  it('reads the v3 received-sms push', () => {
    const [r] = parseRecvSms({
      type: 'received-sms',
      mac: '00-30-f1-00-00-01',
      smses: [
        {
          is_report: false,
          port: 3,
          slot: 2,
          ts: 1700000000,
          from: '+1555',
          to: '',
          iccid: '8901',
          sms: b64('hi'),
        },
      ],
    });
    expect(r).toEqual({
      isReport: false,
      port: '3.02',
      ts: 1700000000,
      sender: '+1555',
      recipient: null,
      text: 'hi',
      iccid: '8901',
    });
  });

  it('reads JSON sent as text/plain', () => {
    const items = parseRecvSms(
      JSON.stringify({ type: 'recv-sms', sms: [[0, '1.01', 5, 'x', '', b64('json as text')]] }),
    );
    expect(items[0]!.text).toBe('json as text');
  });

  it('refuses something that is not an SMS push', () => {
    expect(() => parseRecvSms({ type: 'dev-status' })).toThrow(ProtocolError);
    expect(() => parseRecvSms(42)).toThrow(ProtocolError);
  });
});

describe('the plain-text "SMS to HTTP" forward', () => {
  it('reads port and sender from the query and the body after the blank line', () => {
    const text = 'Sender: +15551112222\r\nReceiver: "61.01"\r\n\r\nYour code: 4321\r\nThanks';
    const r = parseRecvSmsText(text, {
      port: '61A',
      sender: '+15551112222',
      mac: '00-30-f1-00-00-01',
      iccid: '8901260',
    });
    expect(r).toEqual({
      isReport: false,
      port: '61.01',
      ts: null,
      sender: '+15551112222',
      recipient: null,
      text: 'Your code: 4321\nThanks',
      iccid: '8901260',
    });
  });

  it('falls back to the header lines without a query', () => {
    const r = parseRecvSmsText('Sender: 10010\nReceiver: 2.01\n\nhello', {});
    expect(r).toMatchObject({ port: '2.01', sender: '10010', text: 'hello' });
  });

  it('takes the whole text as the message when there are no header lines', () => {
    expect(parseRecvSmsText('just text\n\nmore', { port: '1', sender: 'x' }).text).toBe('just text\n\nmore');
  });

  it('is what parseRecvSms does with a non-JSON string', () => {
    expect(parseRecvSms('Sender: 1\n\nbody', { port: '4B' })[0]).toMatchObject({
      port: '4.02',
      text: 'body',
    });
  });

  it('refuses a forward without port or sender', () => {
    expect(() => parseRecvSmsText('hello', {})).toThrow(/port/);
    expect(() => parseRecvSmsText('hello', { port: '1' })).toThrow(/sender/);
  });

  it('parses crafted header lines in linear time (long runs of spaces froze the old pattern)', () => {
    const spaces = ' '.repeat(20_000);
    const crafted = [
      `k:${spaces}"a"b\nSender: 1\n\nbody`,
      `k:${spaces}"a"b`,
      `Sender:${spaces}\n${spaces}x\n\nbody`,
      `${'a:\n'.repeat(20_000)}\nbody`,
      `a${'-'.repeat(20_000)}`,
    ];
    const t0 = performance.now();
    for (const text of crafted) {
      expect(parseRecvSmsText(text, { port: '1', sender: 'x' }).port).toBe('1.01');
    }
    // The defect was seconds per message; linear parsing takes milliseconds.
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('reads quoted and unquoted header values, and skips a value with a stray quote', () => {
    const r = parseRecvSmsText('Sender: "+15550001111"\nReceiver:   "+15552223333"  \nNote: "a"b\n\nhi', {
      port: '1',
    });
    expect(r).toMatchObject({ sender: '+15550001111', recipient: '+15552223333', text: 'hi' });
  });

  it('cleans NUL and lone surrogates out of device strings', () => {
    const r = parseRecvSmsText('Sender: 1\u00002\n\nhi', { port: '1' });
    expect(r.sender).toBe('12');
    expect(leadingInt(1e308)).toBeUndefined();
    expect(leadingInt('99999999999999999999')).toBeUndefined();
  });
});

describe('parseStatusReport', () => {
  it('reads running totals and sdr/fdr delta rows', () => {
    const r = parseStatusReport({
      type: 'status-report',
      rpt_num: 1,
      rpts: [
        {
          tid: 1223,
          sending: 0,
          sent: 5,
          failed: 1,
          unsent: 0,
          sdr: [[0, '13686876620', '1.01', 1466506477]],
          fdr: [[1, '13686876621', '1B', 1466506480, '6 Timeout', '']],
        },
        { nope: true },
      ],
    });
    expect(r.reports).toEqual([
      {
        tid: 1223,
        sending: 0,
        sent: 5,
        failed: 1,
        unsent: 0,
        sdr: [{ index: 0, number: '13686876620', port: '1.01', ts: 1466506477 }],
        fdr: [
          {
            index: 1,
            number: '13686876621',
            port: '1.02',
            ts: 1466506480,
            reason: '6 Timeout',
            reasonCode: 6,
            carrierReason: '',
          },
        ],
      },
    ]);
  });

  it('tolerates missing arrays and refuses another type', () => {
    expect(parseStatusReport({ type: 'status-report' }).reports).toEqual([]);
    expect(parseStatusReport({ rpts: [{ tid: '7', sent: '2' }] }).reports[0]).toMatchObject({
      tid: 7,
      sent: 2,
      sdr: [],
    });
    expect(() => parseStatusReport({ type: 'recv-sms' })).toThrow(ProtocolError);
  });
});

describe('replies', () => {
  it('accepts success code 0 or 200', () => {
    expect(parseReply({ code: 200, reason: 'OK' }).ok).toBe(true);
    expect(parseReply({ code: 0, reason: 'OK', par_set: 1 }).ok).toBe(true);
    expect(parseReply({ code: '200' }).ok).toBe(true);
    expect(parseReply({ code: 2, reason: 'Invalid Port' }).ok).toBe(false);
    expect(parseReply('x').ok).toBe(false);
  });

  it('recognises a refused account', () => {
    expect(isAuthFailure(parseReply({ code: 14, reason: 'Unauthorized' }))).toBe(true);
    expect(isAuthFailure(parseReply({ code: 1, reason: 'Invalid User' }))).toBe(true);
    expect(isAuthFailure(parseReply({ code: 2, reason: 'Invalid Port' }))).toBe(false);
  });
});

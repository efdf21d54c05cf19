import { describe, expect, it } from 'vitest';
import {
  csqToDbm,
  deliverAck,
  deliveryResult,
  donePacket,
  type Keepalive,
  keepaliveAnswer,
  keepaliveSim,
  MSG_TEXT_MAX_BYTES,
  msgPacket,
  PACKET_MAX_BYTES,
  parseDevicePacket,
  passwordPacket,
  type Receive,
  receiveAck,
  receiveSms,
  reportAck,
  sendPacket,
  ussdExitPacket,
  ussdPacket,
} from './goip.protocol.ts';

// Packets as the protocol's sources write them; every reader must survive any datagram.

const KEEPALIVE =
  'req:12;id:line1;pass:secret;num:15550000001;signal:21;gsm_status:LOGIN;voip_status:LOGOUT;' +
  'imei:862032045299211;imsi:310260123456789;iccid:89014102211234567890;';

describe('keepalives', () => {
  it('reads the registration and the SIM identity, keeping unknown fields', () => {
    expect(parseDevicePacket(KEEPALIVE)).toEqual({
      type: 'keepalive',
      count: 12,
      id: 'line1',
      password: 'secret',
      num: '15550000001',
      signal: 21,
      gsmStatus: 'LOGIN',
      imei: '862032045299211',
      imsi: '310260123456789',
      iccid: '89014102211234567890',
      carrier: null,
      extra: { voip_status: 'LOGOUT' },
    });
  });

  it('reads newer firmware: pro, extra fields, CRLF at the end', () => {
    const p = parseDevicePacket(
      `req:1;id:L2;pass:pw;num:;signal:99;gsm_status:LOGOUT;imei:8620;imsi:;iccid:;pro:T-Mobile US;remain_time:-1;idle:5;disable_status:0;CGATT;\r\n`,
    );
    expect(p).toMatchObject({
      type: 'keepalive',
      count: 1,
      id: 'L2',
      num: null,
      signal: 99,
      gsmStatus: 'LOGOUT',
      imsi: null,
      iccid: null,
      carrier: 'T-Mobile US',
      extra: { remain_time: '-1', idle: '5', disable_status: '0', cgatt: '' },
    });
  });

  it('keeps a long field it does not read, cut short', () => {
    const p = parseDevicePacket(`req:3;id:x;pass:p;CELLINFO:${'1,'.repeat(400)};`) as Keepalive;
    expect(p.type).toBe('keepalive');
    expect(p.extra.cellinfo).toHaveLength(256);
  });

  it('keeps a __proto__ field as a field', () => {
    const p = parseDevicePacket('req:3;id:x;pass:p;__proto__:1;') as Keepalive;
    expect(Object.getPrototypeOf(p.extra)).toBe(Object.prototype);
    expect(Object.keys(p.extra)).toEqual(['__proto__']);
  });

  it.each([
    ['req:;id:x;', 'keepalive without a count'],
    ['req:abc;id:x;', 'keepalive without a count'],
    ['req:5;pass:x;', 'keepalive without an id'],
    ['req:5;id: ;', 'keepalive without an id'],
    [`req:5;id:${'x'.repeat(300)};`, 'field too long'],
  ])('refuses %j', (packet, reason) => {
    expect(parseDevicePacket(packet)).toEqual({ type: 'malformed', reason, kind: 'req', recvid: null });
  });

  it('answers with the count, 200, and never ok for a refused line', () => {
    expect(keepaliveAnswer(12)).toBe('reg:12;status:200;');
    expect(keepaliveAnswer(12, false)).toBe('reg:12;status:400;');
    expect(() => keepaliveAnswer(-1)).toThrow(RangeError);
  });
});

describe('keepalive → SIM', () => {
  const k = parseDevicePacket(`${KEEPALIVE}pro:T-Mobile;`) as Keepalive;

  it('maps a registered line', () => {
    expect(keepaliveSim(k)).toEqual({
      slot: 'line1',
      state: 'ready',
      deviceState: null,
      iccid: '89014102211234567890',
      imsi: '310260123456789',
      imei: '862032045299211',
      number: '15550000001',
      operator: 'T-Mobile',
      signal: 21,
      balance: null,
      active: null,
    });
    expect(keepaliveSim(k, 'box:line1').slot).toBe('box:line1');
  });

  it.each([
    ['LOGOUT', '8901', 'starting'],
    ['LOGOUT', null, 'empty'],
    [null, '8901', 'starting'],
    [null, null, 'empty'],
    ['LOGIN', null, 'ready'],
  ] as const)('%s with ICCID %s is %s, never blocked', (gsmStatus, iccid, state) => {
    expect(keepaliveSim({ ...k, gsmStatus, iccid, imsi: null }).state).toBe(state);
  });

  it.each([
    [0, 0, -113],
    [31, 31, -51],
    [99, null, null],
    [32, null, null],
    [-1, null, null],
    [null, null, null],
  ])('signal %s is stored as %s (%s dBm)', (csq, stored, dbm) => {
    expect(keepaliveSim({ ...k, signal: csq }).signal).toBe(stored);
    expect(csqToDbm(csq)).toBe(dbm);
  });
});

describe('incoming SMS', () => {
  const head = 'RECEIVE:1234;id:line1;password:pw;srcnum:+15550000002;msg:';

  it.each([
    ['plain', 'Hello'],
    ['separators of the protocol', 'a;id:x;password:y;msg:z; b:c'],
    ['capitals kept', 'YOUR CODE IS AbC123'],
    ['emoji and other scripts', 'Привет 👋 你好'],
    ['empty', ''],
    ['its own whitespace and newlines', ' two\nlines \r\n'],
  ])('keeps the rest of the packet as the text: %s', (_what, msg) => {
    expect(parseDevicePacket(head + msg)).toEqual({
      type: 'receive',
      recvid: '1234',
      id: 'line1',
      password: 'pw',
      srcnum: '+15550000002',
      msg,
    });
  });

  it('reads pass: as well as password:, and any recvid the clock gives', () => {
    expect(parseDevicePacket('RECEIVE:-77;id:line1;pass:pw;srcnum:BANK;msg:Hi')).toMatchObject({
      type: 'receive',
      recvid: '-77',
      password: 'pw',
      srcnum: 'BANK',
      msg: 'Hi',
    });
  });

  it('reads the UTF-8 bytes of a datagram', () => {
    const p = parseDevicePacket(Buffer.from(`${head}Grüße 🎉`, 'utf8'));
    expect(p).toMatchObject({ type: 'receive', msg: 'Grüße 🎉' });
  });

  it.each([
    ['RECEIVE:;id:x;srcnum:1;msg:hi', 'report without a recvid', null],
    ['RECEIVE:abc;id:x;srcnum:1;msg:hi', 'report without a recvid', null],
    ['RECEIVE:5;id:x;password:p;srcnum:1', 'SMS without msg', '5'],
    ['RECEIVE:5;id:x;password:p;msg:hi', 'SMS without srcnum', '5'],
  ])('refuses %j (recvid %s kept)', (packet, reason, recvid) => {
    expect(parseDevicePacket(packet)).toEqual({ type: 'malformed', reason, kind: 'RECEIVE', recvid });
  });

  it("is the platform's incoming SMS on the line, without a device time", () => {
    const r = parseDevicePacket(`${head}Code: 1;2`) as Receive;
    expect(receiveSms(r, 'line1', '15550000001')).toEqual({
      isReport: false,
      port: 'line1',
      ts: null,
      sender: '+15550000002',
      recipient: '15550000001',
      text: 'Code: 1;2',
    });
  });

  it('answers OK with the recvid as sent', () => {
    expect(receiveAck('-0012')).toBe('RECEIVE -0012 OK');
    expect(() => receiveAck('12 OK')).toThrow(RangeError);
  });
});

describe('other reports', () => {
  it('reads a delivery report and its raw state', () => {
    expect(parseDevicePacket('DELIVER:77;id:line1;password:pw;sms_no:5;state:0;num:15550000002\r\n')).toEqual(
      {
        type: 'deliver',
        recvid: '77',
        id: 'line1',
        password: 'pw',
        smsNo: 5,
        state: '0',
        num: '15550000002',
      },
    );
    expect(deliverAck('77')).toBe('DELIVER 77 OK');
  });

  it.each([
    ['0', { outcome: 'delivered', deviceText: '' }],
    ['2', { outcome: 'failed', deviceText: 'delivery state 2' }],
    ['-1', { outcome: 'failed', deviceText: 'delivery state -1' }],
    ['', null],
    ['x', null],
  ])('delivery state %j is %j', (state, result) => {
    expect(deliveryResult(state)).toEqual(result);
  });

  it('reads line state, calls and remaining minutes', () => {
    expect(parseDevicePacket('STATE:3;id:line1;password:pw;gsm_remain_state:BUSY')).toEqual({
      type: 'state',
      recvid: '3',
      id: 'line1',
      password: 'pw',
      remainState: 'BUSY',
    });
    expect(parseDevicePacket('RECORD:4;id:line1;password:pw;dir:1;num:15550000003')).toMatchObject({
      type: 'record',
      recvid: '4',
      direction: 'incoming',
      num: '15550000003',
    });
    expect(parseDevicePacket('REMAIN:5;id:line1;pass:pw;gsm_remain_time:42')).toMatchObject({
      type: 'remain',
      recvid: '5',
      password: 'pw',
      minutes: 42,
    });
  });

  it('keeps an unknown kind with its recvid so it can be answered', () => {
    expect(parseDevicePacket('HANGUP:9;id:line1;password:pw;x:y')).toEqual({
      type: 'unknown',
      name: 'HANGUP',
      recvid: '9',
      text: 'HANGUP:9;id:line1;password:pw;x:y',
    });
    expect(reportAck('HANGUP', '9')).toBe('HANGUP 9 OK');
    expect(parseDevicePacket('get_gsm_num 5 15550000001')).toMatchObject({ type: 'unknown', recvid: null });
  });
});

describe('send session answers', () => {
  it.each([
    ['PASSWORD 17', { type: 'password', sendid: 17 }],
    ['SEND 17\r\n', { type: 'send', sendid: 17 }],
    ['OK 17 3 88', { type: 'ok', sendid: 17, telid: 3, smsNo: 88 }],
    ['OK 17 3', { type: 'ok', sendid: 17, telid: 3, smsNo: null }],
    ['WAIT 17 3', { type: 'wait', sendid: 17, telid: 3 }],
    ['DONE 17', { type: 'done', sendid: 17 }],
    ['USSD 17 Your balance: 5.00 USD', { type: 'ussd', sendid: 17, text: 'Your balance: 5.00 USD' }],
    ['USSDERROR 17 Timeout', { type: 'ussdError', sendid: 17, text: 'Timeout' }],
    ['USSDEXIT 17', { type: 'ussdExit', sendid: 17 }],
  ])('reads %j', (packet, expected) => {
    expect(parseDevicePacket(packet)).toEqual(expected);
  });

  it.each([
    ['ERROR 17 3 errorstatus:5', 3, 'errorstatus', 5, 'errorstatus:5'],
    ['ERROR 17 3 GSM_LOGOUT', 3, 'gsm_logout', null, 'GSM_LOGOUT'],
    ['ERROR 17 GSM_LOGOUT', null, 'gsm_logout', null, 'GSM_LOGOUT'],
    ['ERROR 17 PASSWORD', null, 'password', null, 'PASSWORD'],
    ['ERROR 17 too many sessions', null, 'other', null, 'too many sessions'],
    ['ERROR 17', null, 'other', null, ''],
  ])('reads %j', (packet, telid, reason, errorStatus, text) => {
    expect(parseDevicePacket(packet)).toEqual({
      type: 'error',
      sendid: 17,
      telid,
      reason,
      errorStatus,
      text,
    });
  });

  it.each([
    ['OK', 'answer without a sendid'],
    ['OK x 3', 'answer without a sendid'],
    ['OK 17', 'OK without a telid'],
    ['WAIT 17 x', 'WAIT without a telid'],
  ])('refuses %j', (packet, reason) => {
    expect(parseDevicePacket(packet)).toMatchObject({ type: 'malformed', reason });
  });
});

describe('garbage', () => {
  it.each([
    ['', 'empty packet'],
    ['   \r\n', 'empty packet'],
    ['\u0000\u0001\u0002', 'no packet kind'],
    [';;;', 'no packet kind'],
    ['{"json":1}', 'no packet kind'],
    ['RECEIVE-1;x', 'no packet kind'],
  ])('%j is malformed, not a throw', (packet, reason) => {
    expect(parseDevicePacket(packet)).toMatchObject({ type: 'malformed', reason });
  });

  it('reads the largest datagrams of separators in linear time', () => {
    const started = performance.now();
    for (const fill of [';', ':', 'a', ' ', 'a:b;', ';msg']) {
      const tail = fill.repeat(Math.floor((PACKET_MAX_BYTES - 40) / fill.length));
      parseDevicePacket(`req:1;id:x;${tail}`);
      parseDevicePacket(`RECEIVE:1;id:x;${tail}`);
      parseDevicePacket(`ERROR 1 ${tail}`);
    }
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses a datagram over the UDP limit and survives invalid UTF-8', () => {
    expect(parseDevicePacket(new Uint8Array(PACKET_MAX_BYTES + 1))).toMatchObject({ type: 'malformed' });
    const p = parseDevicePacket(
      Uint8Array.from([...Buffer.from('RECEIVE:1;id:a;srcnum:1;msg:'), 0xff, 0xfe]),
    );
    expect(p).toMatchObject({ type: 'receive', msg: '\uFFFD\uFFFD' });
  });
});

describe('server packets', () => {
  it('counts MSG length in UTF-8 bytes', () => {
    expect(msgPacket(5, 'Hello')).toBe('MSG 5 5 Hello');
    expect(msgPacket(5, 'Grüße')).toBe('MSG 5 7 Grüße');
    expect(msgPacket(5, '👋')).toBe('MSG 5 4 👋');
    expect(msgPacket(5, '')).toBe('MSG 5 0 ');
  });

  it('takes 3000 bytes and refuses more', () => {
    const max = 'a'.repeat(MSG_TEXT_MAX_BYTES);
    expect(msgPacket(1, max)).toBe(`MSG 1 3000 ${max}`);
    expect(() => msgPacket(1, 'a'.repeat(MSG_TEXT_MAX_BYTES + 1))).toThrow(RangeError);
    // 1000 three-byte characters are 3000 bytes; one more is over.
    expect(() => msgPacket(1, '€'.repeat(1000))).not.toThrow();
    expect(() => msgPacket(1, '€'.repeat(1001))).toThrow(RangeError);
  });

  it('writes the session and USSD commands', () => {
    expect(passwordPacket(5, 'pw')).toBe('PASSWORD 5 pw');
    expect(sendPacket(5, 2, '+15550000002')).toBe('SEND 5 2 +15550000002');
    expect(donePacket(5)).toBe('DONE 5');
    expect(ussdPacket(5, 'pw', '*100#')).toBe('USSD 5 pw *100#');
    expect(ussdExitPacket(5, 'pw')).toBe('USSDEXIT 5 pw');
  });

  it.each([
    () => sendPacket(5, 2, '1555 0000'),
    () => sendPacket(5, 2, ''),
    () => sendPacket(-1, 2, '1'),
    () => sendPacket(5, 1.5, '1'),
    () => passwordPacket(5, 'a\nb'),
    () => ussdPacket(5, 'pw', '*100# 1'),
  ])('refuses what would break a packet (%#)', (write) => {
    expect(write).toThrow(RangeError);
  });
});

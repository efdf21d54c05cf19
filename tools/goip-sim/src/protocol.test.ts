import { describe, expect, it } from 'vitest';
import { fieldsOf, keepalive, parseServerPacket, report } from './protocol.ts';

describe('packets', () => {
  it('reads both keepalive answers, and any other status as a refusal', () => {
    expect(parseServerPacket('reg:3;status:0;')).toEqual({
      type: 'keepalive-answer',
      count: 3,
      status: '0',
      ok: true,
    });
    expect(parseServerPacket('req:3;status:200;')).toMatchObject({ count: 3, ok: true });
    expect(parseServerPacket('req:3;status:400;')).toMatchObject({ ok: false });
    expect(parseServerPacket('reg:3;status:;')).toMatchObject({ ok: false });
  });

  it('keeps a MSG text whole (spaces, case, separators, line breaks); other packets may end in one', () => {
    expect(parseServerPacket('MSG 12 20 Hello World; a:B  c\n')).toEqual({
      type: 'msg',
      sendid: '12',
      len: 20,
      text: 'Hello World; a:B  c\n',
    });
    expect(parseServerPacket('DONE 12\r\n')).toEqual({ type: 'done', sendid: '12' });
    expect(parseServerPacket('SEND 12 3 +15550001')).toEqual({
      type: 'send',
      sendid: '12',
      telid: '3',
      number: '+15550001',
    });
    expect(parseServerPacket('USSD 7 pw *100#')).toEqual({
      type: 'ussd',
      sendid: '7',
      password: 'pw',
      code: '*100#',
    });
    expect(parseServerPacket('RECEIVE -4 OK')).toMatchObject({
      type: 'ack',
      kind: 'RECEIVE',
      recvid: -4,
      ok: true,
    });
    expect(parseServerPacket('DELIVER 9 ERROR no')).toMatchObject({ type: 'ack', ok: false, rest: 'no' });
    expect(parseServerPacket('svr_reboot_dev 1 pw')).toEqual({
      type: 'unknown',
      text: 'svr_reboot_dev 1 pw',
    });
  });

  it('writes keepalives and reports field by field, the text last and whole', () => {
    const k = keepalive({
      count: 1,
      id: 'g1',
      password: 'p',
      number: '1555',
      signal: 20,
      loggedIn: true,
      imei: 'I',
      imsi: 'S',
      iccid: 'C',
      carrier: 'Op',
    });
    expect(k).toBe(
      'req:1;id:g1;pass:p;num:1555;signal:20;gsm_status:LOGIN;voip_status:LOGOUT;imei:I;imsi:S;iccid:C;pro:Op;',
    );
    expect(fieldsOf(k).get('gsm_status')).toBe('LOGIN');
    expect(
      report('RECEIVE', 5, 'g1', 'p', [
        ['srcnum', '1'],
        ['msg', 'a;b:C'],
      ]),
    ).toBe('RECEIVE:5;id:g1;password:p;srcnum:1;msg:a;b:C');
  });
});

import { describe, expect, it } from 'vitest';
import { parseMarker, receiptText, smppMarker } from './outbox.ts';
import {
  CMD,
  cstring,
  MalformedPdu,
  parseValidity,
  readBind,
  readSubmit,
  splitPdus,
  TLV,
  writePdu,
} from './pdu.ts';
import { Reassembly } from './reassembly.ts';
import { decodeGsm, decodeText, encodeText, splitUdh } from './text.ts';
import { TokenBucket } from './token-bucket.ts';

// The pure parts of the SMPP server: framing, bodies, text decoding, UDH reassembly, the rate bucket.

const ucs2 = (text: string) => Buffer.from(text, 'utf16le').swap16();

function submitBody(o: { to: string; esm?: number; dc?: number; sm?: Buffer; tlvs?: [number, Buffer][] }) {
  const sm = o.sm ?? Buffer.alloc(0);
  const tlvs = (o.tlvs ?? []).map(([tag, v]) => {
    const head = Buffer.alloc(4);
    head.writeUInt16BE(tag, 0);
    head.writeUInt16BE(v.length, 2);
    return Buffer.concat([head, v]);
  });
  return Buffer.concat([
    cstring(''),
    Buffer.from([1, 1]),
    cstring('SimDock'),
    Buffer.from([1, 1]),
    cstring(o.to),
    Buffer.from([o.esm ?? 0, 0, 0]),
    cstring(''),
    cstring(''),
    Buffer.from([0, 0, o.dc ?? 0, 0, sm.length]),
    sm,
    ...tlvs,
  ]);
}

describe('PDU framing', () => {
  it('splits whole PDUs off a stream and keeps a partial one', () => {
    const a = writePdu(CMD.enquire_link, 0, 7);
    const b = writePdu(CMD.unbind, 0, 8);
    const { pdus, rest } = splitPdus(Buffer.concat([a, b.subarray(0, 10)]));
    expect(pdus.map((p) => [p.commandId, p.sequence])).toEqual([[CMD.enquire_link, 7]]);
    expect(rest.length).toBe(10);
  });

  it('refuses a length below the header or above the maximum', () => {
    const bad = Buffer.alloc(16);
    bad.writeUInt32BE(8, 0);
    expect(() => splitPdus(bad)).toThrow(MalformedPdu);
    bad.writeUInt32BE(1 << 30, 0);
    expect(() => splitPdus(bad)).toThrow(MalformedPdu);
  });

  it('reads a bind and refuses one whose password is longer than 8', () => {
    const body = Buffer.concat([
      cstring('sd0011223344'),
      cstring('Ab3dEf7h'),
      cstring(''),
      Buffer.from([0x34, 1, 1]),
      cstring(''),
    ]);
    expect(readBind(body)).toMatchObject({
      systemId: 'sd0011223344',
      password: 'Ab3dEf7h',
      interfaceVersion: 0x34,
    });
    const long = Buffer.concat([
      cstring('x'),
      cstring('123456789'),
      cstring(''),
      Buffer.from([0x34, 1, 1]),
      cstring(''),
    ]);
    expect(() => readBind(long)).toThrow(MalformedPdu);
  });

  it('reads a submit_sm with its TLVs, and a truncated one is malformed', () => {
    const body = submitBody({
      to: '+4915112345678',
      dc: 8,
      sm: ucs2('Привет'),
      tlvs: [[TLV.message_payload, Buffer.from('x')]],
    });
    const s = readSubmit(body);
    expect(s).toMatchObject({ destinationAddr: '+4915112345678', dataCoding: 8 });
    expect(decodeText(s.shortMessage, 8)).toBe('Привет');
    expect(s.tlvs.get(TLV.message_payload)?.toString()).toBe('x');
    expect(() => readSubmit(body.subarray(0, 20))).toThrow(MalformedPdu);
  });
});

describe('text', () => {
  it('decodes GSM 7-bit (one septet per octet) with the extension table', () => {
    expect(decodeGsm(Buffer.from([0x48, 0x69, 0x00, 0x1b, 0x65, 0x11, 0x1b, 0x3c]))).toBe('Hi@€_[');
  });

  it('decodes Latin-1 and UCS-2 (a surrogate pair too), and refuses odd UCS-2', () => {
    expect(decodeText(Buffer.from('Grüße', 'latin1'), 3)).toBe('Grüße');
    expect(decodeText(ucs2('日本 😀'), 8)).toBe('日本 😀');
    expect(decodeText(Buffer.from([0x00]), 8)).toBeUndefined();
  });

  it('splits a UDH with an 8-bit and a 16-bit concatenation element', () => {
    const eight = splitUdh(Buffer.concat([Buffer.from([5, 0, 3, 0x2a, 3, 2]), Buffer.from('ab')]));
    expect(eight).toEqual({ part: { ref: 0x2a, total: 3, seq: 2 }, text: Buffer.from('ab') });
    const sixteen = splitUdh(Buffer.concat([Buffer.from([6, 8, 4, 0x12, 0x34, 2, 1]), Buffer.from('c')]));
    expect(sixteen?.part).toEqual({ ref: 0x1234, total: 2, seq: 1 });
    expect(splitUdh(Buffer.from([9, 0, 3]))).toBeUndefined();
  });
});

describe('Reassembly', () => {
  it('holds parts in any order until the set is complete, then answers them in order', () => {
    const r = new Reassembly(60_000);
    expect(r.add('a|1|7|8', { ref: 7, total: 3, seq: 3 }, Buffer.from('C'), 0)).toBe('held');
    expect(r.add('a|1|7|8', { ref: 7, total: 3, seq: 1 }, Buffer.from('A'), 1)).toBe('held');
    // A repeated part replaces the first copy.
    expect(r.add('a|1|7|8', { ref: 7, total: 3, seq: 1 }, Buffer.from('A'), 2)).toBe('held');
    expect(r.add('a|1|7|8', { ref: 7, total: 3, seq: 2 }, Buffer.from('B'), 3)).toEqual(Buffer.from('ABC'));
    expect(r.size).toBe(0);
  });

  it('drops a set not complete within the timeout, and refuses sets beyond the owner’s maximum', () => {
    const r = new Reassembly(60_000, 2);
    r.add('a|1|1|0', { ref: 1, total: 2, seq: 1 }, Buffer.from('x'), 0);
    r.add('a|1|2|0', { ref: 2, total: 2, seq: 1 }, Buffer.from('x'), 10_000);
    expect(r.add('a|1|3|0', { ref: 3, total: 2, seq: 1 }, Buffer.from('x'), 10_000)).toBe('full');
    expect(r.add('b|1|3|0', { ref: 3, total: 2, seq: 1 }, Buffer.from('x'), 10_000)).toBe('held');
    expect(r.expire(59_999)).toEqual([]);
    expect(r.expire(60_000)).toEqual([{ key: 'a|1|1|0', received: 1, total: 2 }]);
    expect(r.size).toBe(2);
  });
});

describe('TokenBucket', () => {
  it('allows one second’s burst, then refills at the rate', () => {
    const b = new TokenBucket(3, 0);
    expect([b.take(0), b.take(0), b.take(0), b.take(0)]).toEqual([true, true, true, false]);
    expect(b.take(200)).toBe(false);
    expect(b.take(334)).toBe(true);
    expect(b.take(10_000)).toBe(true);
    expect([b.take(10_000), b.take(10_000), b.take(10_000)]).toEqual([true, true, false]);
  });

  it('cuts what is saved to a lowered rate, and never refills on a change of rate', () => {
    const b = new TokenBucket(30, 0);
    b.setRate(2);
    expect([b.take(0), b.take(0), b.take(0)]).toEqual([true, true, false]);
    b.setRate(30);
    expect(b.take(0)).toBe(false);
    expect(b.take(100)).toBe(true);
  });
});

describe('receipts and MO text', () => {
  it('writes a receipt in the usual format, with the dates in UTC and the text cut at 20 characters', () => {
    const t = receiptText('o42', {
      from: '14155550001',
      to: 'ACME',
      stat: 'DELIVRD',
      err: '000',
      submitMs: Date.UTC(2026, 10, 30, 7, 5),
      doneMs: Date.UTC(2026, 10, 30, 7, 6),
      text: 'Your code is 1234, thanks',
    });
    expect(t).toBe(
      'id:o42 sub:001 dlvrd:001 submit date:2611300705 done date:2611300706 stat:DELIVRD err:000 text:Your code is 1234, t',
    );
  });

  it('keeps the source_addr whole in the marker, colons included', () => {
    const m = parseMarker(
      smppMarker({ apiKeyId: 'k-1', receipt: true, submitMs: 1700000000000, sourceAddr: 'A:B' }),
    );
    expect(m).toEqual({ apiKeyId: 'k-1', receipt: true, submitMs: 1700000000000, sourceAddr: 'A:B' });
    expect(parseMarker('my-own-ref')).toBeUndefined();
    expect(parseMarker(null)).toBeUndefined();
  });

  it('encodes GSM text as data_coding 0 (escapes included) and anything else as UCS-2', () => {
    const gsm = encodeText('Hi {€}');
    expect(gsm.dataCoding).toBe(0);
    expect(decodeText(gsm.bytes, 0)).toBe('Hi {€}');
    const ucs2 = encodeText('Привет ☺');
    expect(ucs2.dataCoding).toBe(8);
    expect(decodeText(ucs2.bytes, 8)).toBe('Привет ☺');
  });
});

describe('parseValidity', () => {
  const now = new Date('2026-03-10T12:00:00.000Z');

  it('reads an absolute time in UTC, and a local time ahead of or behind UTC', () => {
    expect(parseValidity('260310130000000+', now)).toEqual(new Date('2026-03-10T13:00:00.000Z'));
    expect(parseValidity('260310130000508+', now)).toEqual(new Date('2026-03-10T11:00:00.500Z'));
    expect(parseValidity('260310130000004-', now)).toEqual(new Date('2026-03-10T14:00:00.000Z'));
  });

  it('reads a relative time from now', () => {
    expect(parseValidity('000000000005000R', now)).toEqual(new Date('2026-03-10T12:00:05.000Z'));
    expect(parseValidity('000001023000000R', now)).toEqual(new Date('2026-03-11T14:30:00.000Z'));
    expect(parseValidity('000100000000000R', now)).toEqual(new Date('2026-04-10T12:00:00.000Z'));
  });

  it('answers null for none and invalid for anything else', () => {
    expect(parseValidity('', now)).toBeNull();
    for (const bad of [
      'tomorrow',
      '26031013000000+',
      '261310130000000+',
      '260431130000000+',
      '260310250000000+',
      '260310130000049+',
      '000000000005100R',
      '26031013000000X+',
      '260310130000000Z',
    ])
      expect(parseValidity(bad, now), bad).toBe('invalid');
  });
});

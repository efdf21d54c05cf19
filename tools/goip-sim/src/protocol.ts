// The GoIP SMS protocol's packets as text: what a line sends (keepalives, reports) and what it
// understands from the server (keepalive answers, report acks, the bulk-send and USSD commands).
// Packets are kept whole: never lower-cased, and `msg:` is the rest of the packet.

/** What a line reports in each keepalive. */
export interface KeepaliveFields {
  count: number;
  id: string;
  password: string;
  number: string;
  signal: number;
  loggedIn: boolean;
  imei: string;
  imsi: string;
  iccid: string;
  carrier: string;
}

export function keepalive(k: KeepaliveFields): string {
  return (
    `req:${k.count};id:${k.id};pass:${k.password};num:${k.number};signal:${k.signal};` +
    `gsm_status:${k.loggedIn ? 'LOGIN' : 'LOGOUT'};voip_status:LOGOUT;imei:${k.imei};imsi:${k.imsi};` +
    `iccid:${k.iccid};pro:${k.carrier};`
  );
}

/** A device report that the server must ack with `<KIND> <recvid> OK`; re-sent until it does. */
export type ReportKind = 'RECEIVE' | 'DELIVER' | 'RECORD';

/** `KIND:<recvid>;id:..;password:..;<fields>`; the last field (`msg:` of RECEIVE) is taken whole. */
export function report(
  kind: ReportKind,
  recvid: number,
  id: string,
  password: string,
  fields: [string, string | number][],
): string {
  const tail = fields.map(([k, v]) => `${k}:${v}`).join(';');
  return `${kind}:${recvid};id:${id};password:${password};${tail}`;
}

/** Splits `a:1;b:2;` into fields; the first `:` of each part separates name and value. */
export function fieldsOf(packet: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of packet.split(';')) {
    const at = part.indexOf(':');
    if (at > 0) out.set(part.slice(0, at), part.slice(at + 1));
  }
  return out;
}

/** A packet from the server, as a line understands it. */
export type ServerPacket =
  | { type: 'keepalive-answer'; count: number; status: string; ok: boolean }
  | { type: 'ack'; kind: ReportKind; recvid: number; ok: boolean; rest: string }
  | { type: 'msg'; sendid: string; len: number; text: string }
  | { type: 'password'; sendid: string; password: string }
  | { type: 'send'; sendid: string; telid: string; number: string }
  | { type: 'done'; sendid: string }
  | { type: 'ussd'; sendid: string; password: string; code: string }
  | { type: 'ussdexit'; sendid: string; password: string }
  | { type: 'unknown'; text: string };

// Both spellings servers use: `reg:<count>;status:0;` (the vendor document) and
// `req:<count>;status:200;` (the open bridges). Any other status is a refusal.
const KEEPALIVE_ANSWER = /^(reg|req):(-?\d+);status:([^;]*);?\s*$/;
const ACK = /^(RECEIVE|DELIVER|RECORD) (-?\d+) (OK|ERROR)\b ?([\s\S]*)$/;
const MSG = /^MSG (\S+) (\d+) ([\s\S]*)$/;

export function parseServerPacket(raw: string): ServerPacket {
  // A MSG's text is the rest of the packet, to the last byte.
  const msg = MSG.exec(raw);
  if (msg) return { type: 'msg', sendid: msg[1]!, len: Number(msg[2]), text: msg[3]! };
  // In the other packets a trailing line break is framing, not content.
  const text = raw.replace(/\r?\n$/, '');
  const ka = KEEPALIVE_ANSWER.exec(text);
  if (ka) {
    const status = ka[3]!;
    return { type: 'keepalive-answer', count: Number(ka[2]), status, ok: status === '0' || status === '200' };
  }
  const ack = ACK.exec(text);
  if (ack) {
    return {
      type: 'ack',
      kind: ack[1] as ReportKind,
      recvid: Number(ack[2]),
      ok: ack[3] === 'OK',
      rest: ack[4]!,
    };
  }
  const words = text.split(' ');
  const [cmd, sendid, a, b] = words;
  if (cmd === 'PASSWORD' && sendid && a !== undefined) {
    return { type: 'password', sendid, password: words.slice(2).join(' ') };
  }
  if (cmd === 'SEND' && sendid && a && b && words.length === 4) {
    return { type: 'send', sendid, telid: a, number: b };
  }
  if (cmd === 'DONE' && sendid && words.length === 2) return { type: 'done', sendid };
  if (cmd === 'USSD' && sendid && a !== undefined && b !== undefined) {
    return { type: 'ussd', sendid, password: a, code: words.slice(3).join(' ') };
  }
  if (cmd === 'USSDEXIT' && sendid && a !== undefined) {
    return { type: 'ussdexit', sendid, password: words.slice(2).join(' ') };
  }
  return { type: 'unknown', text };
}

// A small SMPP 3.4 PDU codec: only what the server reads (binds, submit_sm, the session commands)
// and writes (their responses, generic_nack, enquire_link). Pure: no sockets.

export const CMD = {
  generic_nack: 0x80000000,
  bind_receiver: 0x00000001,
  bind_transmitter: 0x00000002,
  query_sm: 0x00000003,
  submit_sm: 0x00000004,
  deliver_sm: 0x00000005,
  unbind: 0x00000006,
  bind_transceiver: 0x00000009,
  enquire_link: 0x00000015,
} as const;

/** The response id of a request id. */
export const RESP = 0x80000000;

export const STATUS = {
  ESME_ROK: 0x00,
  ESME_RINVMSGLEN: 0x01,
  ESME_RINVCMDLEN: 0x02,
  ESME_RINVCMDID: 0x03,
  ESME_RINVBNDSTS: 0x04,
  ESME_RALYBND: 0x05,
  ESME_RSYSERR: 0x08,
  ESME_RINVDSTADR: 0x0b,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RMSGQFUL: 0x14,
  ESME_RSUBMITFAIL: 0x45,
  ESME_RINVEXPIRY: 0x62,
  ESME_RTHROTTLED: 0x58,
  ESME_RQUERYFAIL: 0x67,
} as const;

/** message_state values (SMPP 3.4, 5.2.28). */
export const MESSAGE_STATE = {
  ENROUTE: 1,
  DELIVERED: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIVERABLE: 5,
  ACCEPTED: 6,
  UNKNOWN: 7,
  REJECTED: 8,
} as const;

/** Longest PDU accepted: a submit_sm with a message_payload of a long message fits many times. */
export const PDU_MAX = 64 * 1024;
const HEADER = 16;

export interface PduHeader {
  length: number;
  commandId: number;
  status: number;
  sequence: number;
}

export interface Pdu extends PduHeader {
  body: Buffer;
}

/** A PDU the framing could not read: the session that sent it is closed. */
export class MalformedPdu extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedPdu';
  }
}

/**
 * Takes every complete PDU off the front of `buf`; answers them and what is left. Throws
 * MalformedPdu for a length below the header or above PDU_MAX.
 */
export function splitPdus(buf: Buffer): { pdus: Pdu[]; rest: Buffer } {
  const pdus: Pdu[] = [];
  let at = 0;
  while (buf.length - at >= 4) {
    const length = buf.readUInt32BE(at);
    if (length < HEADER || length > PDU_MAX) throw new MalformedPdu(`command_length ${length}`);
    if (buf.length - at < length) break;
    pdus.push({
      length,
      commandId: buf.readUInt32BE(at + 4),
      status: buf.readUInt32BE(at + 8),
      sequence: buf.readUInt32BE(at + 12),
      body: buf.subarray(at + HEADER, at + length),
    });
    at += length;
  }
  return { pdus, rest: buf.subarray(at) };
}

/** Reads the body's fields in order; a field running past the end is malformed. */
class Reader {
  at = 0;
  constructor(private readonly buf: Buffer) {}
  cstring(max: number): string {
    const end = this.buf.indexOf(0, this.at);
    if (end < 0 || end - this.at > max) throw new MalformedPdu('C-octet string without its NUL or too long');
    const text = this.buf.toString('latin1', this.at, end);
    this.at = end + 1;
    return text;
  }
  int8(): number {
    if (this.at >= this.buf.length) throw new MalformedPdu('PDU body too short');
    return this.buf[this.at++]!;
  }
  octets(n: number): Buffer {
    if (this.at + n > this.buf.length) throw new MalformedPdu('PDU body too short');
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
  /** Optional parameters to the end of the body. */
  tlvs(): Map<number, Buffer> {
    const out = new Map<number, Buffer>();
    while (this.at < this.buf.length) {
      if (this.buf.length - this.at < 4) throw new MalformedPdu('truncated TLV');
      const tag = this.buf.readUInt16BE(this.at);
      const len = this.buf.readUInt16BE(this.at + 2);
      this.at += 4;
      out.set(tag, this.octets(len));
    }
    return out;
  }
}

export interface BindBody {
  systemId: string;
  password: string;
  systemType: string;
  interfaceVersion: number;
}

export function readBind(body: Buffer): BindBody {
  const r = new Reader(body);
  const systemId = r.cstring(15);
  const password = r.cstring(8);
  const systemType = r.cstring(12);
  const interfaceVersion = r.int8();
  // addr_ton, addr_npi, address_range: read for their shape only.
  r.int8();
  r.int8();
  r.cstring(40);
  return { systemId, password, systemType, interfaceVersion };
}

export const TLV = {
  receipted_message_id: 0x001e,
  message_state: 0x0427,
  sar_msg_ref_num: 0x020c,
  sar_total_segments: 0x020e,
  sar_segment_seqnum: 0x020f,
  message_payload: 0x0424,
} as const;

export interface SubmitBody {
  sourceAddr: string;
  destTon: number;
  destinationAddr: string;
  esmClass: number;
  registeredDelivery: number;
  /** As sent: empty (none), absolute or relative SMPP time (see parseValidity). */
  validityPeriod: string;
  dataCoding: number;
  shortMessage: Buffer;
  tlvs: Map<number, Buffer>;
}

export function readSubmit(body: Buffer): SubmitBody {
  const r = new Reader(body);
  r.cstring(5); // service_type
  r.int8(); // source_addr_ton
  r.int8(); // source_addr_npi
  const sourceAddr = r.cstring(20);
  const destTon = r.int8();
  r.int8(); // dest_addr_npi
  const destinationAddr = r.cstring(20);
  const esmClass = r.int8();
  r.int8(); // protocol_id
  r.int8(); // priority_flag
  r.cstring(16); // schedule_delivery_time
  const validityPeriod = r.cstring(16);
  const registeredDelivery = r.int8();
  r.int8(); // replace_if_present_flag
  const dataCoding = r.int8();
  r.int8(); // sm_default_msg_id
  const smLength = r.int8();
  const shortMessage = r.octets(smLength);
  return {
    sourceAddr,
    destTon,
    destinationAddr,
    esmClass,
    registeredDelivery,
    validityPeriod,
    dataCoding,
    shortMessage,
    tlvs: r.tlvs(),
  };
}

export interface QueryBody {
  messageId: string;
  sourceAddr: string;
}

export function readQuery(body: Buffer): QueryBody {
  const r = new Reader(body);
  const messageId = r.cstring(64);
  r.int8(); // source_addr_ton
  r.int8(); // source_addr_npi
  const sourceAddr = r.cstring(20);
  return { messageId, sourceAddr };
}

/** A TLV on the wire. */
export function tlv(tag: number, value: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(tag, 0);
  head.writeUInt16BE(value.length, 2);
  return Buffer.concat([head, value]);
}

export interface DeliverBody {
  sourceAddr: string;
  destinationAddr: string;
  esmClass: number;
  dataCoding: number;
  /** Up to 254 octets; a longer message goes in message_payload. */
  message: Buffer;
  tlvs?: Buffer[];
}

/** A deliver_sm body (international numbers, ton 1 npi 1, when the address is digits). */
export function writeDeliver(d: DeliverBody): Buffer {
  const ton = (addr: string) => (/^\d+$/.test(addr) ? 1 : 0);
  const long = d.message.length > 254;
  const head = Buffer.concat([
    cstring(''), // service_type
    Buffer.from([ton(d.sourceAddr), ton(d.sourceAddr)]),
    cstring(d.sourceAddr.slice(0, 20)),
    Buffer.from([ton(d.destinationAddr), ton(d.destinationAddr)]),
    cstring(d.destinationAddr.slice(0, 20)),
    Buffer.from([d.esmClass, 0, 0]), // esm_class, protocol_id, priority_flag
    cstring(''), // schedule_delivery_time
    cstring(''), // validity_period
    Buffer.from([0, 0, d.dataCoding, 0, long ? 0 : d.message.length]),
  ]);
  const extra = [...(d.tlvs ?? []), ...(long ? [tlv(TLV.message_payload, d.message)] : [])];
  return Buffer.concat([head, long ? Buffer.alloc(0) : d.message, ...extra]);
}

/** One PDU on the wire. */
export function writePdu(
  commandId: number,
  status: number,
  sequence: number,
  body: Buffer = Buffer.alloc(0),
) {
  const out = Buffer.alloc(HEADER + body.length);
  out.writeUInt32BE(out.length, 0);
  out.writeUInt32BE(commandId >>> 0, 4);
  out.writeUInt32BE(status >>> 0, 8);
  out.writeUInt32BE(sequence >>> 0, 12);
  body.copy(out, HEADER);
  return out;
}

/** A C-octet string field. */
export const cstring = (text: string) => Buffer.concat([Buffer.from(text, 'latin1'), Buffer.from([0])]);

/**
 * A validity_period at `now`: null when empty (no limit), the end as a Date, or 'invalid'.
 * Absolute `YYMMDDhhmmsstnnp` (tenths, quarter hours from UTC, p '+' ahead or '-' behind) or
 * relative `YYMMDDhhmmss000R` (years, months, days… added to now).
 */
export function parseValidity(value: string, now: Date): Date | null | 'invalid' {
  if (value === '') return null;
  const m = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d)(\d{2})([+\-R])$/.exec(value);
  if (!m) return 'invalid';
  const [yy, mo, dd, hh, mi, ss, t, nn] = m.slice(1, 9).map(Number) as number[];
  const p = m[9];
  if (p === 'R') {
    if (t !== 0 || nn !== 0) return 'invalid';
    const d = new Date(now.getTime());
    d.setUTCFullYear(d.getUTCFullYear() + yy!, d.getUTCMonth() + mo!, d.getUTCDate() + dd!);
    return new Date(d.getTime() + ((hh! * 60 + mi!) * 60 + ss!) * 1000);
  }
  if (mo! < 1 || mo! > 12 || dd! < 1 || hh! > 23 || mi! > 59 || ss! > 59 || nn! > 48) return 'invalid';
  const utc = Date.UTC(2000 + yy!, mo! - 1, dd!, hh!, mi!, ss!, t! * 100);
  // A day past the month's end (31 April) would roll over.
  if (new Date(utc).getUTCDate() !== dd) return 'invalid';
  // Local time ahead of UTC ('+') is UTC plus the offset.
  const offsetMs = nn! * 15 * 60_000 * (p === '+' ? 1 : -1);
  return new Date(utc - offsetMs);
}

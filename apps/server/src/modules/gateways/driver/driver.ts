import type { SimState } from '@simdock/contract';
import type { SendResult } from '../../../context.ts';

// What the platform needs from a SIM device, independent of the vendor protocol. A driver
// (ejoin*.ts for multi-port boxes, smsgate*.ts for Android phones) translates its device's
// protocol into these shapes; nothing outside the driver folder reads a vendor's codes, field
// names or port formats (docs/devices-ejoin.md, docs/devices-smsgate.md).

/**
 * One SIM as a device reports it. `slot` is the SIM's place in its device as the driver writes it
 * ("1.01" on a multi-port box, "2" for a phone's second SIM): opaque to the rest of the server,
 * stored as the SIM's `port` (the API's word for it).
 */
export interface SimEntry {
  slot: string;
  /**
   * The platform's SIM state (SimState in the contract): the driver maps its device's code onto
   * it, so the rest of the server never reads a vendor's numbers. `blocked` locks the SIM.
   */
  state: SimState;
  /** The device's own words for the state ("Registration failed"), for people; null if it gave none. */
  deviceState: string | null;
  /** ICCID; a device that hides it may give a masked form ("****1234"), never used as a key. */
  iccid: string | null;
  imsi: string | null;
  imei: string | null;
  /** The SIM's own number as the device knows it; often unknown (then an admin enters it). */
  number: string | null;
  operator: string | null;
  signal: number | null;
  balance: string | null;
  /** Whether the SIM can send now (a multi-slot port sends from one slot); null = unknown. */
  active: boolean | null;
  /**
   * True when the report does not say which card is in the slot (no ICCID, IMSI or number, as a
   * status page that lists only the network's state): what is known of the card is kept, not taken
   * for a swapped card; only an empty slot forgets it.
   */
  cardUnknown?: boolean;
}

/** A device and its SIMs, read by a Scan or pushed by the device. */
export interface DeviceStatus {
  /** The device's own id, stable across restarts: the MAC of a box, the app's id of a phone. */
  externalId: string;
  /** The device's model or name as it reports it. */
  model: string | null;
  ip: string | null;
  firmware: string | null;
  maxPorts: number | null;
  maxSlots: number | null;
  /** True when `sims` lists every place of the device: SIMs not listed are gone. */
  complete: boolean;
  sims: SimEntry[];
}

/** One incoming SMS (or carrier delivery receipt) as the device handed it over. */
export interface IncomingSmsItem {
  isReport: boolean;
  /** The receiving SIM's slot (SimEntry.slot). */
  port: string;
  /** Device time, unix seconds; null when the device gives none. */
  ts: number | null;
  /** Sender number (the SMSC for a delivery receipt). */
  sender: string;
  /** The receiving SIM's number if the device knows it; for a receipt, the original recipient. */
  recipient: string | null;
  /** Decoded UTF-8 text; for a receipt, "<code> <scts>". */
  text: string;
  iccid?: string | null;
  /** An incoming MMS's files (images, video; layout parts are left out). */
  attachments?: MediaPart[];
  /** The device's own id of this SMS when it has one: the same SMS seen twice keeps it. */
  dedupeKey?: string;
}

export interface MediaPart {
  contentType: string;
  data: Uint8Array;
}

/** An incoming MMS whose receiving SIM is known only by its number (found by the platform). */
export interface IncomingMms {
  sender: string;
  /** The receiving SIM's number, when the device says it. */
  recipient: string | null;
  subject: string;
  text: string;
  ts: number | null;
  attachments: MediaPart[];
}

/** One send task: one SIM per task is how the platform sends. */
export interface SendTask {
  /** The platform's task id; the device's results carry it back. */
  tid: number;
  /** One or more numbers joined by commas. */
  to: string;
  sms: string;
  /** The slot (SimEntry.slot) of the SIM to send from; absent lets the device pick. */
  from?: string;
  /** An MMS: its subject and files. */
  mms?: MmsContent;
}

export interface MmsContent {
  title: string;
  /** Each file's type as its extension (jpg, png, gif, webp, mp4) and its bytes. */
  attachments: { type: string; data: Uint8Array }[];
}

/** Where the device reaches the platform: one secret URL per gateway (`base`) and named channels. */
export interface PushUrls {
  base: string;
  status: string;
  sms: string;
  report: string;
}

/**
 * What a device answered for one send task, in the platform's words: `accepted` (it has the task,
 * also when it already had it), `sim_cannot_send` (this SIM cannot send now: another may),
 * `device_busy` (try again later), `account_refused` (the device refused our account: later),
 * `recipient_refused` (no other SIM would change it).
 */
export type SendOutcome =
  | 'accepted'
  | 'sim_cannot_send'
  | 'device_busy'
  | 'account_refused'
  | 'recipient_refused';

export interface TaskOutcome {
  tid: number;
  outcome: SendOutcome;
  /** The device's own words ("5 SIM Unregistered"), for people. */
  deviceText: string;
}

export interface PulledSms {
  /** The device inbox's boot id: a new one means ids restarted at 1. */
  ssrc: string | null;
  /** Ask for this id next time. */
  nextId: number;
  items: IncomingSmsItem[];
}

/** A request to the gateway's secret URL: the channel is the path segment after the secret. */
export interface HttpPushTransport {
  kind: 'http';
  /** '' for the gateway's base URL; otherwise the named channel the device was given. */
  channel: '' | 'status' | 'sms' | 'mms' | 'report';
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
}

/**
 * A datagram to the platform's port for this kind of device: the device names itself inside the
 * message, and is answered from the same socket at the address and port it came from (NAT).
 */
export interface DatagramPushTransport {
  kind: 'datagram';
  from: DatagramAddress;
}

export interface DatagramAddress {
  address: string;
  port: number;
}

/** A push as it reached the platform, and how it travelled. */
export interface RawPush {
  transport: HttpPushTransport | DatagramPushTransport;
  /** The body exactly as it came (signatures are over these bytes). */
  body: Buffer;
  /** The server's clock, for signature freshness. */
  now: Date;
}

/** The HTTP side of a push, for a driver whose devices push only over HTTP. */
export function httpPush(raw: RawPush): HttpPushTransport {
  if (raw.transport.kind !== 'http') throw new ProtocolError('this device pushes over HTTP');
  return raw.transport;
}

/**
 * Who a device that names itself inside its messages says it is (its login and password, as
 * configured on the device): such a push is authenticated by these, not by a secret URL.
 */
export interface DeviceLogin {
  login: string;
  password: string;
}

/** Sends datagrams from the platform's socket for a kind of device (its listener holds it). */
export interface DatagramPort {
  send(to: DatagramAddress, data: Buffer): Promise<void>;
  /** The port the socket is bound to (the one devices must be pointed at). */
  readonly localPort: number;
}

/**
 * What a driver whose sends the platform holds (DeviceKindSpec.sends = 'held') gets to run them:
 * the kind's socket in the process that holds it, where each line of the device was last heard
 * from, and the device's answers to this process's own requests.
 */
export interface DatagramLink {
  port: DatagramPort;
  /** Where the device's line `slot` was last heard from, recently enough to send to; else undefined. */
  peerOf(slot: string): DatagramAddress | undefined;
  /** A number no other request of this process uses now (a session id). */
  newRequestId(): number;
  /**
   * Hands the datagrams that answer request `key` (DeviceKindSpec.answerKeyOf) to `onAnswer`
   * until the returned function is called.
   */
  answers(key: string, onAnswer: (body: Buffer, from: DatagramAddress) => void): () => void;
  /** Aborted when this process stops holding the socket: requests in flight end at once. */
  readonly closed: AbortSignal;
}

/** One held send: a task the platform keeps until the device has answered for it. */
export interface HeldSend {
  tid: number;
  to: string;
  sms: string;
  /** The slot (SimEntry.slot) of the SIM to send from. */
  from: string;
}

/** What became of a held send. */
export interface HeldResult {
  tid: number;
  outcome: SendOutcome;
  /**
   * False for an `accepted` the device never confirmed (its answer was lost): the SMS may have gone
   * out, so it is never sent again.
   */
  confirmed: boolean;
  /** The device's own number of the sent SMS, which its delivery report names; null if none. */
  deviceRef: string | null;
  deviceText: string;
}

/** What one push says, in the platform's words. */
export type DevicePush =
  | { kind: 'status'; status: DeviceStatus }
  | { kind: 'sim'; sim: SimEntry }
  | { kind: 'sms'; items: IncomingSmsItem[] }
  | { kind: 'mms'; mms: IncomingMms }
  | { kind: 'report'; results: SendResult[] }
  /**
   * A delivery report that names the SMS by the device's own number of it (HeldResult.deviceRef)
   * rather than by the platform's task id: the platform finds the task.
   */
  | {
      kind: 'receipt';
      port: string;
      deviceRef: string;
      outcome: Extract<SendResult['outcome'], 'delivered' | 'failed'>;
      deviceText: string;
    }
  /** A call on a SIM, as the device reported it: kept. */
  | { kind: 'call'; port: string; direction: 'incoming' | 'outgoing' | null; number: string | null }
  /** A sign of life and nothing else (a ping, an event the platform does not use). */
  | { kind: 'alive' };

export interface ReadPush {
  push: DevicePush;
  /**
   * What the device must be answered on its own transport when the push has been applied (a
   * datagram device's acknowledgement); an HTTP device gets the platform's usual answer.
   */
  reply?: Buffer;
  /**
   * The device's id of this delivery when it has one (a retried webhook keeps it): the platform
   * applies each id once, so a replayed push changes nothing.
   */
  eventId?: string;
}

/** What connecting a device left undone. */
export interface ConnectResult {
  /** Things that did not work but do not stop the device from working (shown in the log). */
  warnings: string[];
}

/**
 * One vendor protocol: the calls the platform makes to a device, and the reading of what the
 * device pushes. `readPush` throws ProtocolError on a body that does not follow the protocol and
 * PushRefused when the push cannot be trusted (signature, age).
 */
export interface GatewayDriver {
  /** The slot as people or devices write it, in the driver's form; undefined if not a slot. */
  canonicalSlot(raw: string): string | undefined;
  /** What a slot looks like, for an error message ("Port must look like 1.01 (port 1, slot 1)."). */
  readonly slotHint: string;
  /** Reads one push. */
  readPush(raw: RawPush): ReadPush;
  /** The device's status now (the Scan). */
  getStatus(): Promise<DeviceStatus>;
  /**
   * Points the device's pushes at the platform (status, incoming SMS, send results, signs of
   * life), again on every Scan: a device may forget after a reboot. Throws GatewayError when the
   * device cannot work with the platform.
   */
  connect(urls: PushUrls): Promise<ConnectResult>;
  /** Best effort: asks the device to stop pushing (the gateway is being deleted). */
  disconnect(urls: PushUrls): Promise<void>;
  sendTasks(tasks: SendTask[], urls: PushUrls): Promise<TaskOutcome[]>;
  /**
   * Runs held sends from one slot with one text (the process that holds the kind's socket calls
   * it): `settle` is told each result as soon as the device gives it (its delivery report may
   * follow at once), one call after another. Never throws for what the device does.
   */
  sendHeld?(
    sends: HeldSend[],
    link: DatagramLink,
    settle: (results: HeldResult[]) => Promise<void>,
  ): Promise<void>;
  /**
   * Sends a USSD code from the SIM in `slot` and answers the network's reply (a balance, the own
   * number), where the device can (DeviceKindSpec.can.ussd). A device whose traffic the platform
   * holds is reached through `link`. Throws GatewayError (`refused`: the network's error).
   */
  ussd?(slot: string, code: string, link?: DatagramLink): Promise<string>;
  /** Writes the SIM's number to the device, where the device can keep one. */
  setSimNumber?(slot: string, number: string, device: { maxSlots: number | null }): Promise<void>;
  /** Reads the device inbox from id `fromId` (catch-up after missed pushes), where it has one. */
  pullSms?(fromId: number, max?: number): Promise<PulledSms>;
}

export type GatewayErrorKind = 'timeout' | 'network' | 'http' | 'auth' | 'refused' | 'protocol';

/** A device call that failed; `message` is for people and never contains the URL or password. */
export class GatewayError extends Error {
  constructor(
    readonly kind: GatewayErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

/** A push or reply that does not follow the protocol. */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** A push that cannot be trusted: a missing, wrong or stale signature. */
export class PushRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PushRefused';
  }
}

/** What a driver is built from: the gateway's stored settings (secrets unsealed on first read). */
export interface DriverTarget {
  /** Base URL of the device's API (or of the server that fronts it). */
  url: string;
  username: string;
  readonly password: string;
  /** Driver-specific: SMSGate's mode ('local' | 'cloud' | 'private'), GoIP's ('udp' | 'web'). */
  mode: string | null;
  /** The device's id when known (learned at the first Scan). */
  externalId: string | null;
  /** The key the device signs its pushes with, when it signs them. */
  readonly signingKey: string | null;
  /** The device's own web pages' account when it has one apart from `username` (a GoIP box). */
  webUser?: string | null;
  readonly webPassword?: string | null;
  /**
   * The platform's datagram socket for this kind of device, when the kind speaks datagrams and a
   * listener of this process holds the socket (reached through the server's runtime).
   */
  readonly datagrams?: DatagramPort | undefined;
}

/** Deeper nesting than any device protocol uses: refused before parsing (a deep tree overflows the stack). */
export const PUSH_JSON_MAX_DEPTH = 32;

/**
 * JSON.parse for a device push: a body nested deeper than `PUSH_JSON_MAX_DEPTH`, or not JSON at
 * all, is a ProtocolError (a 400), never a stack overflow in whatever walks the tree later.
 */
export function parsePushJson(text: string, what = 'the push body'): unknown {
  if (jsonTooDeep(text)) throw new ProtocolError(`${what} is nested too deeply`);
  try {
    return JSON.parse(text);
  } catch {
    throw new ProtocolError(`${what} is not valid JSON`);
  }
}

/** Whether JSON text opens more than `PUSH_JSON_MAX_DEPTH` arrays or objects inside each other. */
export function jsonTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > PUSH_JSON_MAX_DEPTH) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

import type { SendResult } from '../../../context.ts';

// What the platform needs from a SIM gateway, independent of the vendor protocol.

/** One SIM slot as a device reports it (a `dev-status` entry or a `port-status` push). */
export interface PortEntry {
  /** Canonical "N.SS" (port N, slot SS, both 1-based). */
  port: string;
  portNo: number;
  slotNo: number;
  /** Leading integer of `st`: 0 no SIM, 3/4/15 usable (docs/devices.md#sim-states). */
  state: number;
  iccid: string | null;
  imsi: string | null;
  imei: string | null;
  /** The SIM's number as the device knows it (`sn`); often unknown. */
  number: string | null;
  operator: string | null;
  signal: number | null;
  balance: string | null;
  /** The port's current slot; only it can send. Unknown on older firmware. */
  active: boolean | null;
}

export interface DevStatus {
  /** Normalised aa:bb:cc:dd:ee:ff. */
  mac: string;
  ip: string | null;
  firmware: string | null;
  maxPorts: number | null;
  maxSlots: number | null;
  /** Seconds the report is valid for; -1 on a pull. */
  expires: number | null;
  ports: PortEntry[];
}

/** One incoming SMS (or carrier delivery receipt) as the device handed it over. */
export interface IncomingSmsItem {
  isReport: boolean;
  /** Canonical "N.SS". */
  port: string;
  /** Device time, unix seconds; null when the variant carries none (the text forward). */
  ts: number | null;
  /** Sender number (the SMSC for a delivery receipt). */
  sender: string;
  /** The receiving SIM's number if the device knows it; for a receipt, the original recipient. */
  recipient: string | null;
  /** Decoded UTF-8 text; for a receipt, "<code> <scts>". */
  text: string;
  iccid?: string | null;
  /** An incoming MMS's files (images, video; the SMIL layout is left out). */
  attachments?: MediaPart[];
}

export interface MediaPart {
  contentType: string;
  data: Uint8Array;
}

/** An incoming MMS as the device pushed it (its port is found from the receiving number). */
export interface IncomingMms {
  sender: string;
  /** The receiving SIM's number, when the device says it. */
  recipient: string | null;
  subject: string;
  text: string;
  ts: number | null;
  attachments: MediaPart[];
}

/** What a device reports about its send tasks, translated (the shape lives in the context). */
export interface StatusReport {
  results: SendResult[];
}

/** One send task: one port per task is how the platform sends (docs/devices.md#task-codes). */
export interface SendTask {
  tid: number;
  /** One or more numbers joined by commas. */
  to: string;
  sms: string;
  /** Port number(s) to send from; absent lets the device pick. */
  from?: string;
  /** An MMS: its subject and files (`smstype` 1, `smstitle`, `attachments`; docs/devices.md#mms). */
  mms?: MmsContent;
}

export interface MmsContent {
  title: string;
  /** Each file's type as its extension (jpg, png, gif, webp, mp4) and its bytes. */
  attachments: { type: string; data: Uint8Array }[];
}

export interface SendOptions {
  /** Where the device posts status-report (results). */
  srUrl?: string;
  /** Where the device posts recv-sms (replies). */
  smsUrl?: string;
  /** Ask the carrier for a delivery receipt. */
  deliveryReport?: boolean;
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

/** A status push: the whole device (dev-status) or one slot (port-status). */
export type StatusPush = { kind: 'dev-status'; dev: DevStatus } | { kind: 'port-status'; entry: PortEntry };

/**
 * One vendor protocol: the calls the platform makes to a device, and the reading of what the
 * device pushes. Parse methods throw ProtocolError on a body that does not follow the protocol.
 */
export interface GatewayDriver {
  /** Reads a status push (the body as it came: parsed JSON or text). */
  parseStatusPush(body: unknown): StatusPush;
  /** Reads an incoming-SMS push; malformed rows are skipped. */
  parseSmsPush(body: unknown, query: Record<string, string | undefined>): IncomingSmsItem[];
  /** Reads an incoming-MMS push (its headers and raw body); throws ProtocolError when it is none. */
  parseMmsPush(headers: Record<string, string | undefined>, body: Uint8Array): IncomingMms;
  /** Reads a send-report push. */
  parseReportPush(body: unknown): StatusReport;
  /** The platform's "N.SS" form of a port as people or devices write it; undefined if not a port. */
  canonicalPort(raw: string): string | undefined;
  /** The device's status now (the Scan). */
  getStatus(): Promise<DevStatus>;
  /** Asks the device to POST dev-status to `url` every `period` seconds (>= 60; 0 stops). */
  subscribeStatus(url: string, period: number): Promise<void>;
  /**
   * Points the device's incoming-SMS push (and, where the firmware keeps one, the send-report push)
   * at us with the config command; every send request carries both URLs as well.
   */
  configureSmsUrls(urls: { sms: string; report?: string }): Promise<void>;
  sendTasks(tasks: SendTask[], opts?: SendOptions): Promise<TaskOutcome[]>;
  command(
    op: 'lock' | 'unlock' | 'switch' | 'reset' | 'reboot' | 'save' | 'redial',
    ports: string,
  ): Promise<void>;
  /** Writes the SIM's number to the device (`sim_number(n)`), shown back as `sn`. */
  setSimNumber(port: string, number: string, slotsPerPort: number): Promise<void>;
  /** Reads the device inbox from id `fromId` (catch-up after missed pushes). */
  pullSms(fromId: number, max?: number): Promise<PulledSms>;
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

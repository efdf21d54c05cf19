// A simulated Android phone running SMSGate, serving the third-party REST API of one mode
// (Local, Cloud or Private) for a single phone, and sending its webhooks. Protocol facts:
// docs/devices-smsgate.md.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { controlHandler } from './control.ts';
import {
  aggregate,
  hexId,
  incomingId,
  isE164,
  isEvent,
  type Mode,
  makeRandom,
  maskSim,
  nanoid,
  PREFIX,
  partsCount,
  phoneTime,
  type State,
  type WebhookEvent,
} from './model.ts';
import { type DeliveryRecord, type RetryOptions, type Webhook, WebhookSender } from './webhooks.ts';

export interface SlotConfig {
  /** null: the phone cannot read it (no READ_PHONE_STATE, or the carrier does not store it). */
  phoneNumber: string | null;
  iccid: string | null;
  carrierName: string;
}

/** Another phone of the same Cloud/Private account: listed, but it never comes online. */
export interface OtherDevice {
  id: string;
  name: string;
  /** Set: the phone was removed from the account (the list still shows it, with `deletedAt`). */
  deletedAt?: string;
}

export interface PhoneSimOptions {
  host?: string;
  port?: number;
  mode: Mode;
  username: string;
  password: string;
  /** Physical slots in order (slotIndex 0, 1, …); null is an empty slot. */
  slots: (SlotConfig | null)[];
  signingKey: string;
  seed?: number;
  deviceId?: string;
  /** `<manufacturer>/<product>`. */
  name?: string;
  version?: string;
  releaseId?: number;
  /** The phone's UTC offset for payload times (default +07:00). */
  tzOffsetMinutes?: number;
  /** Delay between state steps Pending → Processed → Sent → Delivered (default 5 ms). */
  stepMs?: number;
  retry?: Partial<RetryOptions>;
  /** Accept plain http:// webhook URLs anywhere (an "insecure" app build). Local always accepts http://127.0.0.1. */
  allowHttpWebhooks?: boolean;
  /** Send system:ping at this interval; off when absent. */
  pingIntervalMs?: number;
  /** Serve the unauthenticated /sim/* control API on the same port. */
  controlApi?: boolean;
  /** Cloud/Private: more phones in the account besides this one. */
  otherDevices?: OtherDevice[];
  /** false: an older app that reports no SIMs (the device list has no `simCards`). Default true. */
  simReporting?: boolean;
  /** Cloud/Private queue limit: a send while this many messages are Pending answers 503. */
  maxPending?: number;
}

/** What happens to one recipient of a send. */
export type Outcome =
  | 'delivered'
  /** Sent, and no final delivery report ever comes: the recipient stays Sent. */
  | 'sent'
  | 'failed'
  | { failed: string }
  | { deliverAfterMs: number }
  /** Sent (the carrier took it), then its delivery report fails: `sms:sent`, later `sms:failed`. */
  | { failAfterSentMs: number; reason?: string };

export interface OutgoingSms {
  messageId: string;
  phoneNumber: string;
  simNumber: number | null;
  text: string | null;
}

export type OutcomeFn = (sms: OutgoingSms) => Outcome;

export interface RecipientRecord {
  phoneNumber: string;
  state: State;
  error?: string;
}

export interface MessageRecord {
  id: string;
  deviceId: string;
  text: string | null;
  data: { data: string; port: number } | null;
  simNumber: number | null;
  withDeliveryReport: boolean;
  isEncrypted: boolean;
  priority: number;
  createdAt: number;
  recipients: RecipientRecord[];
  states: Partial<Record<State, string>>;
}

export interface IncomingRecord {
  messageId: string;
  simNumber: number;
  sender: string;
  recipient: string | null;
  text: string;
  receivedAt: string;
}

/** One part of an incoming MMS, as the app hands it over in mms:downloaded. */
export interface MmsPart {
  contentType: string;
  name: string;
  data: Uint8Array;
}

/** Settings groups as the API shows them (snake_case keys); write-only keys are never shown. */
export type Settings = Record<string, Record<string, unknown>>;

/** Keys only the phone's own (Local) API may set; the server answers 400. */
const LOCAL_ONLY = [
  'webhooks.signing_key',
  'encryption.passphrase',
  'gateway.cloud_url',
  'gateway.private_token',
];
/** Keys that are set but never read back. */
const WRITE_ONLY = new Set(LOCAL_ONLY);

const DEFAULT_FAILURE = 'Send result: RESULT_ERROR_GENERIC_FAILURE (Generic failure cause)';
/** The reason of a failed delivery report (the carrier took the SMS, the handset never got it). */
const LATE_FAILURE = 'Delivery report: STATUS_FAILED (the recipient was not reached)';
const MAX_BODY = 1024 * 1024;

interface Req {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
  authorization: string | undefined;
}

interface Reply {
  status: number;
  json?: unknown;
  headers?: Record<string, string>;
}

export class PhoneSim {
  readonly mode: Mode;
  readonly deviceId: string;
  private readonly o: Required<
    Omit<
      PhoneSimOptions,
      'seed' | 'deviceId' | 'retry' | 'pingIntervalMs' | 'port' | 'host' | 'otherDevices' | 'maxPending'
    >
  >;
  private readonly rand: () => number;
  private readonly server: Server;
  private readonly sender: WebhookSender;
  private readonly messages = new Map<string, MessageRecord>();
  private readonly incoming: IncomingRecord[] = [];
  private readonly hooks = new Map<string, Webhook>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly createdAt = new Date();
  private outcome: OutcomeFn = () => 'delivered';
  private signingKey: string;
  private pending = 0;
  private waiters: (() => void)[] = [];
  private pinger: NodeJS.Timeout | undefined;
  private boundUrl = '';
  private readonly others: OtherDevice[];
  private readonly maxPending: number | undefined;
  private readonly store: Settings;

  private constructor(opts: PhoneSimOptions) {
    this.mode = opts.mode;
    this.rand = makeRandom(opts.seed);
    this.deviceId = opts.deviceId ?? (opts.mode === 'local' ? hexId(this.rand) : nanoid(this.rand));
    this.signingKey = opts.signingKey;
    this.o = {
      mode: opts.mode,
      username: opts.username,
      password: opts.password,
      slots: opts.slots,
      signingKey: opts.signingKey,
      name: opts.name ?? 'samsung/a52qnsxx',
      version: opts.version ?? '1.40.0',
      releaseId: opts.releaseId ?? 140,
      tzOffsetMinutes: opts.tzOffsetMinutes ?? 420,
      stepMs: opts.stepMs ?? 5,
      allowHttpWebhooks: opts.allowHttpWebhooks ?? false,
      controlApi: opts.controlApi ?? false,
      simReporting: opts.simReporting ?? true,
    };
    this.others = opts.mode === 'local' ? [] : (opts.otherDevices ?? []).map((d) => ({ ...d }));
    this.maxPending = opts.mode === 'local' ? undefined : opts.maxPending;
    this.store = {
      ping: { interval_seconds: opts.pingIntervalMs ? Math.ceil(opts.pingIntervalMs / 1000) : null },
      webhooks: { internet_required: true, retry_count: opts.retry?.count ?? 6 },
    };
    this.sender = new WebhookSender(
      () => this.signingKey,
      { baseMs: 10, count: 6, timeoutMs: 5000, ...opts.retry },
      `me.capcom.smsgateway/${this.o.version}`,
      (p) => this.track(p),
    );
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  static async start(opts: PhoneSimOptions): Promise<PhoneSim> {
    const sim = new PhoneSim(opts);
    const host = opts.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      sim.server.once('error', reject);
      sim.server.listen(opts.port ?? 0, host, () => {
        sim.server.off('error', reject);
        resolve();
      });
    });
    const port = (sim.server.address() as AddressInfo).port;
    sim.boundUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    if (opts.pingIntervalMs) sim.setPingInterval(opts.pingIntervalMs);
    return sim;
  }

  /** http://host:port, where the control API lives. */
  get url(): string {
    return this.boundUrl;
  }

  /** The third-party API root for this mode (Local: no prefix). */
  get baseUrl(): string {
    return this.boundUrl + PREFIX[this.mode];
  }

  get username(): string {
    return this.o.username;
  }

  async stop(): Promise<void> {
    if (this.pinger) clearInterval(this.pinger);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.sender.stop();
    this.pending = 0;
    this.flushWaiters();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  setOutcome(fn: OutcomeFn): void {
    this.outcome = fn;
  }

  /** The phone's signing key can be changed (in the app, or PATCH /settings in Local). */
  setSigningKey(key: string): void {
    this.signingKey = key;
  }

  /** The key the phone signs webhooks with now (the API never shows it; tests may). */
  get currentSigningKey(): string {
    return this.signingKey;
  }

  /** The settings as GET /settings shows them. */
  settings(): Settings {
    const out: Settings = {};
    for (const [group, values] of Object.entries(this.store)) {
      const shown = Object.entries(values).filter(([k]) => !WRITE_ONLY.has(`${group}.${k}`));
      out[group] = Object.fromEntries(shown);
    }
    return out;
  }

  /** system:ping every `ms` from now on; null or 0 stops it. */
  setPingInterval(ms: number | null): void {
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = ms ? setInterval(() => this.pingNow(), ms) : undefined;
  }

  sentMessages(): MessageRecord[] {
    return [...this.messages.values()].map(copyMessage);
  }

  received(): IncomingRecord[] {
    return this.incoming.map((m) => ({ ...m }));
  }

  webhooks(): Webhook[] {
    return [...this.hooks.values()].map((h) => ({ ...h }));
  }

  webhookDeliveries(): DeliveryRecord[] {
    return this.sender.deliveries();
  }

  /** Resolves once no state change is scheduled and no webhook is waiting to be (re)sent. */
  webhooksSettled(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** An SMS arrives on SIM number `slot` (1-based, as `simNumber`); raises sms:received. */
  injectSms(m: { slot: number; from: string; text: string; at?: number }): string {
    const sim = this.o.slots[m.slot - 1];
    if (!sim) throw new Error(`no SIM in slot ${m.slot}`);
    const at = m.at ?? Date.now();
    const rec: IncomingRecord = {
      messageId: incomingId(m.from, at, m.slot, m.text),
      simNumber: m.slot,
      sender: m.from,
      recipient: sim.phoneNumber,
      text: m.text,
      receivedAt: this.time(at),
    };
    this.incoming.push(rec);
    this.fire('sms:received', {
      messageId: rec.messageId,
      message: rec.text,
      sender: rec.sender,
      recipient: rec.recipient,
      phoneNumber: rec.sender,
      simNumber: rec.simNumber,
      receivedAt: rec.receivedAt,
    });
    return rec.messageId;
  }

  /**
   * An MMS arrives on SIM number `slot` and finishes downloading: raises mms:downloaded with each
   * part's bytes in base64 (layout parts such as SMIL included, as the app sends them).
   */
  injectMms(m: {
    slot: number;
    from: string;
    subject?: string;
    body?: string;
    parts: MmsPart[];
    at?: number;
  }): string {
    const sim = this.o.slots[m.slot - 1];
    if (!sim) throw new Error(`no SIM in slot ${m.slot}`);
    const at = m.at ?? Date.now();
    const body = m.body ?? '';
    const messageId = incomingId(m.from, at, m.slot, `${m.subject ?? ''}|${body}`);
    this.fire('mms:downloaded', {
      messageId,
      sender: m.from,
      recipient: sim.phoneNumber,
      phoneNumber: m.from,
      simNumber: m.slot,
      subject: m.subject ?? null,
      body,
      attachments: m.parts.map((p, i) => ({
        partId: i + 1,
        contentType: p.contentType,
        name: p.name,
        size: p.data.length,
        data: Buffer.from(p.data).toString('base64'),
      })),
      receivedAt: this.time(at),
    });
    return messageId;
  }

  pingNow(): void {
    this.fire('system:ping', { health: this.localHealth() });
  }

  // ---- state machine -------------------------------------------------------------------------

  private track<T>(p: Promise<T>): Promise<T> {
    this.pending++;
    return p.finally(() => {
      this.pending = Math.max(0, this.pending - 1);
      if (this.pending === 0) this.flushWaiters();
    });
  }

  private flushWaiters(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private later(ms: number, fn: () => void): void {
    void this.track(
      new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          this.timers.delete(t);
          try {
            fn();
          } finally {
            resolve();
          }
        }, ms);
        this.timers.add(t);
      }),
    );
  }

  private time(ms: number = Date.now()): string {
    return phoneTime(ms, this.o.tzOffsetMinutes);
  }

  private setState(m: MessageRecord, r: RecipientRecord, state: State, error?: string): void {
    r.state = state;
    if (error !== undefined) r.error = error;
    const agg = aggregate(m.recipients.map((x) => x.state));
    if (m.states[agg] === undefined) m.states[agg] = this.time();
  }

  private run(m: MessageRecord, simError: string | null): void {
    const step = this.o.stepMs;
    this.later(step, () => {
      for (const r of m.recipients) this.setState(m, r, 'Processed');
      for (const r of m.recipients) {
        const o: Outcome = simError
          ? { failed: simError }
          : this.outcome({
              messageId: m.id,
              phoneNumber: r.phoneNumber,
              simNumber: m.simNumber,
              text: m.text,
            });
        this.later(step, () => this.transmit(m, r, o));
      }
    });
  }

  private transmit(m: MessageRecord, r: RecipientRecord, o: Outcome): void {
    const sender = this.senderNumber(m);
    if (o === 'failed' || (typeof o === 'object' && 'failed' in o)) {
      const reason = o === 'failed' ? DEFAULT_FAILURE : o.failed;
      this.setState(m, r, 'Failed', reason);
      this.fire('sms:failed', {
        ...this.shared(m, r, sender),
        failedAt: this.time(),
        reason,
      });
      return;
    }
    const parts = m.text === null ? 1 : partsCount(m.text);
    this.setState(m, r, 'Sent');
    this.fire('sms:sent', { ...this.shared(m, r, sender), partsCount: parts, sentAt: this.time() });
    if (!m.withDeliveryReport || o === 'sent') return;
    if (typeof o === 'object' && 'failAfterSentMs' in o) {
      const reason = o.reason ?? LATE_FAILURE;
      this.later(o.failAfterSentMs, () => {
        this.setState(m, r, 'Failed', reason);
        this.fire('sms:failed', { ...this.shared(m, r, sender), failedAt: this.time(), reason });
      });
      return;
    }
    const delay = typeof o === 'object' ? o.deliverAfterMs : this.o.stepMs;
    this.later(delay, () => {
      this.setState(m, r, 'Delivered');
      // One sms:delivered per part of a multipart SMS.
      for (let i = 0; i < parts; i++) {
        this.fire('sms:delivered', { ...this.shared(m, r, sender), deliveredAt: this.time() });
      }
    });
  }

  private shared(m: MessageRecord, r: RecipientRecord, sender: string | null) {
    return {
      messageId: m.id,
      sender,
      recipient: r.phoneNumber,
      phoneNumber: r.phoneNumber,
      simNumber: m.simNumber,
    };
  }

  private senderNumber(m: MessageRecord): string | null {
    if (m.simNumber === null) return null;
    return this.o.slots[m.simNumber - 1]?.phoneNumber ?? null;
  }

  private fire(event: WebhookEvent, payload: unknown): void {
    for (const h of this.hooks.values()) {
      if (h.event !== event) continue;
      if (h.deviceId !== null && h.deviceId !== this.deviceId) continue;
      this.sender.send(h, nanoid(this.rand), this.deviceId, payload);
    }
  }

  // ---- HTTP ------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://phone');
    let body: string;
    try {
      body = await readBody(req);
    } catch {
      reply(res, { status: 413, json: { message: 'Payload Too Large' } });
      return;
    }
    const r: Req = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body,
      authorization: req.headers.authorization,
    };
    try {
      if (this.o.controlApi && r.path.startsWith('/sim/')) {
        reply(res, await controlHandler(this, r.method, r.path, r.body));
        return;
      }
      reply(res, this.api(r));
    } catch (err) {
      reply(res, { status: 500, json: { message: err instanceof Error ? err.message : String(err) } });
    }
  }

  private api(r: Req): Reply {
    const prefix = PREFIX[this.mode];
    if (!r.path.startsWith(`${prefix}/`) && r.path !== prefix) return notFound();
    const path = r.path.slice(prefix.length) || '/';
    if (r.method === 'GET' && path === '/health') return this.health();
    if (!this.authorised(r.authorization)) {
      return {
        status: 401,
        json: { message: 'Unauthorized' },
        headers: { 'WWW-Authenticate': 'Basic realm="Access to SMS Gateway", charset="UTF-8"' },
      };
    }
    const local = this.mode === 'local';
    const seg = path.split('/').filter(Boolean);
    const [head, id, ...rest] = seg;
    if (rest.length > 0) return notFound();
    if (local && r.method === 'GET' && path === '/') {
      return ok({ status: 'ok', model: this.o.name.split('/')[1] ?? this.o.name });
    }
    if (head === 'messages' || head === 'message') {
      if (id === undefined && r.method === 'POST') return this.postMessage(r);
      if (id === undefined && r.method === 'GET') return this.listMessages(r.query);
      if (id !== undefined && r.method === 'GET') {
        const m = this.messages.get(decodeURIComponent(id));
        return m ? ok(this.stateOf(m, local)) : error(404, 'message not found');
      }
    }
    // Local has only the singular /device; the server has /devices and the old /device alias.
    if ((head === 'device' || (head === 'devices' && !local)) && id === undefined && r.method === 'GET') {
      return ok([this.device(), ...this.others.map((d) => this.otherDevice(d))]);
    }
    if (head === 'settings' && id === undefined) {
      if (r.method === 'GET') return ok(this.settings());
      if (r.method === 'PATCH') return this.patchSettings(r.body);
    }
    if (head === 'webhooks' || (head === 'webhook' && local)) {
      if (id === undefined && r.method === 'GET') return ok(this.webhooks());
      if (id === undefined && r.method === 'POST') return this.postWebhook(r.body);
      if (id !== undefined && r.method === 'DELETE') {
        return this.hooks.delete(decodeURIComponent(id)) ? { status: 204 } : error(404, 'webhook not found');
      }
    }
    return notFound();
  }

  private authorised(header: string | undefined): boolean {
    const m = /^Basic\s+(.+)$/i.exec(header ?? '');
    if (!m?.[1]) return false;
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    return decoded === `${this.o.username}:${this.o.password}`;
  }

  private health(): Reply {
    if (this.mode === 'local') {
      const h = this.localHealth();
      return { status: h.status === 'fail' ? 500 : 200, json: h };
    }
    // Cloud/Private health reports the server only, never the phone.
    return ok({
      status: 'pass',
      version: this.o.version,
      releaseId: this.o.releaseId,
      checks: {
        'db:ping': check('Failed sequential pings count', 'unit', 0, 'pass'),
      },
    });
  }

  private localHealth() {
    const hourAgo = Date.now() - 3_600_000;
    const recent = [...this.messages.values()].filter((m) => m.createdAt >= hourAgo);
    const failed = recent.filter((m) => aggregate(m.recipients.map((x) => x.state)) === 'Failed');
    const failedStatus = failed.length === 0 ? 'pass' : failed.length === recent.length ? 'fail' : 'warn';
    const checks = {
      'messages:failed': check('Failed messages for last hour', 'messages', failed.length, failedStatus),
      'connection:status': check('Internet connection status', 'boolean', 1, 'pass'),
      'connection:transport': check('Network transport type', 'flags', 2, 'pass'),
      'connection:cellular': check('Cellular network type', 'index', 4, 'pass'),
      'battery:level': check('Battery level in percent', 'percent', 90, 'pass'),
      'battery:charging': check('Is the phone charging?', 'flags', 1, 'pass'),
    };
    return {
      status: failedStatus,
      version: this.o.version,
      releaseId: this.o.releaseId,
      checks,
    };
  }

  private device() {
    const local = this.mode === 'local';
    const hide = (v: string | null) => (local ? v : maskSim(v));
    const simCards = this.o.slots.flatMap((s, i) =>
      s
        ? [
            {
              slotIndex: i,
              simNumber: i + 1,
              phoneNumber: hide(s.phoneNumber),
              carrierName: hide(s.carrierName),
              iccid: hide(s.iccid),
            },
          ]
        : [],
    );
    const now = new Date().toISOString();
    return {
      id: this.deviceId,
      name: this.o.name,
      createdAt: this.createdAt.toISOString(),
      updatedAt: this.createdAt.toISOString(),
      lastSeen: now,
      ...(this.o.simReporting ? { simCards } : {}),
    };
  }

  private otherDevice(d: OtherDevice) {
    const at = this.createdAt.toISOString();
    return {
      id: d.id,
      name: d.name,
      createdAt: at,
      updatedAt: at,
      lastSeen: at,
      ...(d.deletedAt ? { deletedAt: d.deletedAt } : {}),
      simCards: [],
    };
  }

  /** A device of this account (this phone, or a listed one not removed). */
  private knownDevice(id: string): boolean {
    return id === this.deviceId || this.others.some((d) => d.id === id && !d.deletedAt);
  }

  private patchSettings(raw: string): Reply {
    const b = parseObject(raw);
    if (!b) return error(400, 'body must be a JSON object');
    for (const [group, values] of Object.entries(b)) {
      if (values === null) continue;
      if (typeof values !== 'object' || Array.isArray(values))
        return error(400, `${group} must be an object`);
      for (const key of Object.keys(values)) {
        const name = `${group}.${key}`;
        if (this.mode !== 'local' && LOCAL_ONLY.includes(name)) {
          return error(400, `${name} can only be set on the phone`);
        }
      }
    }
    const ping = (b.ping as Record<string, unknown> | null | undefined)?.interval_seconds;
    if (ping !== undefined && ping !== null && (!Number.isInteger(ping) || (ping as number) < 0)) {
      return error(400, 'ping.interval_seconds must be a whole number of seconds');
    }
    const key = (b.webhooks as Record<string, unknown> | null | undefined)?.signing_key;
    if (key !== undefined && (typeof key !== 'string' || key === '')) {
      return error(400, 'webhooks.signing_key must be a non-empty string');
    }
    // A partial update: a group replaces only the keys it names; null resets a value or a group.
    for (const [group, values] of Object.entries(b)) {
      if (values === null) {
        delete this.store[group];
        continue;
      }
      this.store[group] = { ...this.store[group], ...(values as Record<string, unknown>) };
    }
    if (ping !== undefined) this.setPingInterval(typeof ping === 'number' ? ping * 1000 : null);
    if (typeof key === 'string') this.setSigningKey(key);
    return ok(this.settings());
  }

  private postMessage(r: Req): Reply {
    const b = parseObject(r.body);
    if (!b) return error(400, 'body must be a JSON object');
    const v = validateMessage(b, {
      skipPhoneValidation: r.query.get('skipPhoneValidation') === 'true',
    });
    if (typeof v === 'string') return error(400, v);
    if (v.deviceId !== undefined && !this.knownDevice(v.deviceId)) {
      return error(400, this.mode === 'local' ? 'Invalid device ID' : 'device not found');
    }
    const id = v.id ?? nanoid(this.rand);
    if (this.messages.has(id)) return error(409, 'message with the same ID already exists');
    const deviceId = v.deviceId ?? this.deviceId;
    if (this.maxPending !== undefined) {
      const pending = [...this.messages.values()].filter(
        (x) => x.deviceId === deviceId && aggregate(x.recipients.map((r) => r.state)) === 'Pending',
      ).length;
      if (pending >= this.maxPending) {
        return error(
          503,
          `queue limits exceeded: too many pending messages: ${pending} / ${this.maxPending}`,
        );
      }
    }
    // No simNumber: the OSDefault setting, i.e. the first active SIM.
    let simNumber = v.simNumber;
    let simError: string | null = null;
    if (simNumber === null) {
      const first = this.o.slots.findIndex((s) => s !== null);
      if (first < 0) simError = "Can't send message: No SIMs found";
      else simNumber = first + 1;
    } else if (!this.o.slots[simNumber - 1]) {
      simError = `Can't send message: SIM ${simNumber} not found`;
    }
    const now = Date.now();
    const m: MessageRecord = {
      id,
      deviceId,
      text: v.text,
      data: v.data,
      simNumber,
      withDeliveryReport: v.withDeliveryReport,
      isEncrypted: v.isEncrypted,
      priority: v.priority,
      createdAt: now,
      recipients: v.phoneNumbers.map((phoneNumber) => ({ phoneNumber, state: 'Pending' })),
      states: { Pending: this.time(now) },
    };
    this.messages.set(id, m);
    // Another phone of the account never comes online here: its messages stay Pending.
    if (deviceId === this.deviceId) this.run(m, simError);
    const headers: Record<string, string> =
      this.mode === 'local' ? {} : { Location: `${this.baseUrl}/messages/${encodeURIComponent(id)}` };
    return { status: 202, json: this.stateOf(m, false), headers };
  }

  private listMessages(q: URLSearchParams): Reply {
    const limit = Math.min(Math.max(Number(q.get('limit') ?? 50) || 50, 1), 100);
    const offset = Math.max(Number(q.get('offset') ?? 0) || 0, 0);
    const state = q.get('state');
    const asc = q.get('sort') === 'created_at';
    const content = q.get('includeContent') === 'true';
    const all = [...this.messages.values()]
      .filter((m) => !state || aggregate(m.recipients.map((x) => x.state)) === state)
      .sort((a, b) => (asc ? a.createdAt - b.createdAt : b.createdAt - a.createdAt));
    return {
      status: 200,
      json: all.slice(offset, offset + limit).map((m) => this.stateOf(m, content)),
      headers: { 'X-Total-Count': String(all.length) },
    };
  }

  private stateOf(m: MessageRecord, withContent: boolean) {
    return {
      id: m.id,
      deviceId: m.deviceId,
      state: aggregate(m.recipients.map((x) => x.state)),
      isHashed: false,
      isEncrypted: m.isEncrypted,
      recipients: m.recipients.map((r) => ({ ...r })),
      states: { ...m.states },
      ...(withContent && m.text !== null ? { textMessage: { text: m.text } } : {}),
      ...(withContent && m.data !== null ? { dataMessage: { ...m.data } } : {}),
    };
  }

  private postWebhook(raw: string): Reply {
    const b = parseObject(raw);
    if (!b) return error(400, 'body must be a JSON object');
    const { id, url, event, deviceId } = b;
    if (id !== undefined && id !== null && (typeof id !== 'string' || id.length > 36 || id === '')) {
      return error(400, 'id must be a string of at most 36 characters');
    }
    if (!isEvent(event)) return error(400, 'unknown event');
    if (typeof url !== 'string' || !this.webhookUrlAllowed(url)) {
      return error(400, 'url must be https://');
    }
    if (
      deviceId !== undefined &&
      deviceId !== null &&
      (typeof deviceId !== 'string' || !this.knownDevice(deviceId))
    ) {
      return error(400, this.mode === 'local' ? 'Invalid device ID' : 'device not found');
    }
    // A given id replaces that webhook: registration is idempotent under the caller's id.
    const hook: Webhook = {
      id: typeof id === 'string' ? id : nanoid(this.rand),
      deviceId: typeof deviceId === 'string' ? deviceId : null,
      url,
      event,
    };
    this.hooks.set(hook.id, hook);
    return { status: 201, json: { ...hook } };
  }

  private webhookUrlAllowed(url: string): boolean {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return false;
    }
    if (u.protocol === 'https:') return true;
    if (u.protocol !== 'http:') return false;
    if (this.o.allowHttpWebhooks) return true;
    return this.mode === 'local' && u.hostname === '127.0.0.1';
  }
}

interface ValidMessage {
  id: string | undefined;
  deviceId: string | undefined;
  text: string | null;
  data: { data: string; port: number } | null;
  phoneNumbers: string[];
  simNumber: number | null;
  withDeliveryReport: boolean;
  isEncrypted: boolean;
  priority: number;
}

/** Checks a POST /messages body; a string is the 400 message. Unknown fields are ignored. */
export function validateMessage(
  b: Record<string, unknown>,
  opts: { skipPhoneValidation: boolean },
): ValidMessage | string {
  const forms = ['textMessage', 'dataMessage', 'message'].filter((k) => b[k] !== undefined && b[k] !== null);
  if (forms.length !== 1) return 'exactly one of textMessage, dataMessage or message is required';
  let text: string | null = null;
  let data: ValidMessage['data'] = null;
  if (b.message !== undefined && b.message !== null) {
    if (typeof b.message !== 'string') return 'message must be a string';
    text = b.message;
  } else if (b.textMessage !== undefined && b.textMessage !== null) {
    const t = b.textMessage as { text?: unknown };
    if (typeof t !== 'object' || typeof t.text !== 'string') return 'textMessage.text is required';
    text = t.text;
  } else {
    const d = b.dataMessage as { data?: unknown; port?: unknown };
    if (typeof d !== 'object' || typeof d.data !== 'string' || !Number.isInteger(d.port)) {
      return 'dataMessage needs data and port';
    }
    const port = d.port as number;
    if (port < 1 || port > 65535) return 'dataMessage.port must be 1-65535';
    data = { data: d.data, port };
  }
  if (text !== null && (text.length < 1 || text.length > 65535)) {
    return 'text must be 1-65535 characters';
  }
  const isEncrypted = b.isEncrypted === true;
  const nums = b.phoneNumbers;
  if (!Array.isArray(nums) || nums.length < 1 || nums.length > 100) {
    return 'phoneNumbers must have 1-100 entries';
  }
  for (const n of nums) {
    if (typeof n !== 'string' || n.length === 0 || n.length > 128) return 'invalid phone number';
    if (!opts.skipPhoneValidation && !isEncrypted && !isE164(n)) {
      return `invalid phone number: ${n}`;
    }
  }
  if (b.id !== undefined && b.id !== null && (typeof b.id !== 'string' || b.id === '' || b.id.length > 36)) {
    return 'id must be a string of at most 36 characters';
  }
  if (b.deviceId !== undefined && b.deviceId !== null && typeof b.deviceId !== 'string') {
    return 'deviceId must be a string';
  }
  const sim = b.simNumber;
  if (
    sim !== undefined &&
    sim !== null &&
    (!Number.isInteger(sim) || (sim as number) < 1 || (sim as number) > 3)
  ) {
    return 'simNumber must be 1-3';
  }
  const hasTtl = b.ttl !== undefined && b.ttl !== null;
  const hasValidUntil = b.validUntil !== undefined && b.validUntil !== null;
  if (hasTtl && hasValidUntil) return 'ttl and validUntil are mutually exclusive';
  if (hasTtl && (typeof b.ttl !== 'number' || b.ttl < 5)) return 'ttl must be at least 5 seconds';
  const priority = b.priority ?? 0;
  if (!Number.isInteger(priority) || (priority as number) < -128 || (priority as number) > 127) {
    return 'priority must be -128..127';
  }
  return {
    id: typeof b.id === 'string' ? b.id : undefined,
    deviceId: typeof b.deviceId === 'string' ? b.deviceId : undefined,
    text,
    data,
    phoneNumbers: nums as string[],
    simNumber: typeof sim === 'number' ? sim : null,
    withDeliveryReport: b.withDeliveryReport !== false,
    isEncrypted,
    priority: priority as number,
  };
}

function check(description: string, observedUnit: string, observedValue: number, status: string) {
  return { description, observedUnit, observedValue, status };
}

function copyMessage(m: MessageRecord): MessageRecord {
  return {
    ...m,
    data: m.data ? { ...m.data } : null,
    recipients: m.recipients.map((r) => ({ ...r })),
    states: { ...m.states },
  };
}

function parseObject(raw: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function ok(json: unknown): Reply {
  return { status: 200, json };
}

function error(status: number, message: string): Reply {
  return { status, json: { message } };
}

function notFound(): Reply {
  return error(404, 'Not Found');
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function reply(res: ServerResponse, r: Reply): void {
  if (res.destroyed) return;
  const headers: Record<string, string> = { ...r.headers };
  if (r.json !== undefined) headers['Content-Type'] = 'application/json; charset=utf-8';
  res.writeHead(r.status, headers);
  res.end(r.json === undefined ? undefined : JSON.stringify(r.json));
}

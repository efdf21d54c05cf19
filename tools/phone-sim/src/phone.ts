// A simulated Android phone running SMSGate, serving the third-party REST API of one mode
// (Local, Cloud or Private) for a single phone, and sending its webhooks. Protocol facts:
// docs/devices-smsgate.md. This file puts the parts together: the API (api.ts), the messages and
// their walk (outbox.ts), what arrives (incoming.ts), the webhooks (webhook-registry.ts,
// webhooks.ts), the settings, the device list, the health, and the control API (control.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, hostUrl, listen, readBodyOrRefuse, writeReply } from '@simdock/sim-kit';
import { apiHandler } from './api.ts';
import { controlHandler } from './control.ts';
import { DeviceDirectory } from './devices.ts';
import { healthReply, phoneHealth } from './health.ts';
import { Inbox, type IncomingMms, type IncomingRecord } from './incoming.ts';
import { hexId, type Mode, makeRandom, nanoid, PREFIX, phoneTime, type WebhookEvent } from './model.ts';
import { type PhoneSimOptions, type ResolvedOptions, resolveOptions } from './options.ts';
import { type MessageRecord, Outbox, type OutcomeFn } from './outbox.ts';
import { Scheduler } from './scheduler.ts';
import { type Settings, SettingsStore } from './settings.ts';
import { WebhookRegistry } from './webhook-registry.ts';
import { type DeliveryRecord, type Webhook, WebhookSender } from './webhooks.ts';

const MAX_BODY = 1024 * 1024;

export class PhoneSim {
  readonly mode: Mode;
  readonly deviceId: string;
  private readonly o: ResolvedOptions;
  private readonly server: Server;
  private readonly scheduler = new Scheduler();
  private readonly sender: WebhookSender;
  private readonly hooks: WebhookRegistry;
  private readonly outbox: Outbox;
  private readonly inbox: Inbox;
  private readonly devices: DeviceDirectory;
  private readonly store: SettingsStore;
  private signingKey: string;
  private pinger: NodeJS.Timeout | undefined;
  private boundUrl = '';

  private constructor(opts: PhoneSimOptions) {
    const o = resolveOptions(opts);
    const rand = makeRandom(opts.seed);
    const local = opts.mode === 'local';
    this.o = o;
    this.mode = opts.mode;
    this.deviceId = opts.deviceId ?? (local ? hexId(rand) : nanoid(rand));
    this.signingKey = opts.signingKey;
    const time = (ms: number = Date.now()) => phoneTime(ms, o.tzOffsetMinutes);
    const fire = (event: WebhookEvent, payload: unknown) => this.hooks.fire(event, payload);
    this.sender = new WebhookSender(
      () => this.signingKey,
      { baseMs: 10, count: 6, timeoutMs: 5000, ...opts.retry },
      `me.capcom.smsgateway/${o.version}`,
      (p) => this.scheduler.track(p),
    );
    this.devices = new DeviceDirectory({
      mode: this.mode,
      deviceId: this.deviceId,
      name: o.name,
      slots: o.slots,
      simReporting: o.simReporting,
      others: local ? [] : (opts.otherDevices ?? []).map((d) => ({ ...d })),
    });
    const knownDevice = (id: string) => this.devices.known(id);
    this.hooks = new WebhookRegistry({
      mode: this.mode,
      deviceId: this.deviceId,
      allowHttpWebhooks: o.allowHttpWebhooks,
      rand,
      sender: this.sender,
      knownDevice,
    });
    this.outbox = new Outbox({ slots: o.slots, stepMs: o.stepMs, scheduler: this.scheduler, time, fire });
    this.inbox = new Inbox({ slots: o.slots, time, fire });
    this.store = new SettingsStore(this.mode, {
      pingIntervalMs: opts.pingIntervalMs,
      retryCount: opts.retry?.count,
    });
    const api = {
      mode: this.mode,
      deviceId: this.deviceId,
      slots: o.slots,
      rand,
      maxPending: local ? undefined : opts.maxPending,
      outbox: this.outbox,
      url: () => this.boundUrl,
      time,
      knownDevice,
      username: o.username,
      password: o.password,
      name: o.name,
      devices: this.devices,
      settings: this.store,
      hooks: this.hooks,
      health: () => healthReply(this.mode, this.outbox.all(), o),
      applySettings: (e: { pingMs?: number | null; signingKey?: string }) => {
        if (e.pingMs !== undefined) this.setPingInterval(e.pingMs);
        if (e.signingKey !== undefined) this.setSigningKey(e.signingKey);
      },
    };
    this.server = createServer((req, res) => void this.handle(req, res, api));
  }

  static async start(opts: PhoneSimOptions): Promise<PhoneSim> {
    const sim = new PhoneSim(opts);
    const host = opts.host ?? '127.0.0.1';
    sim.boundUrl = hostUrl(host, await listen(sim.server, opts.port ?? 0, host));
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
    this.sender.stop();
    this.scheduler.stop();
    await closeServer(this.server);
  }

  setOutcome(fn: OutcomeFn): void {
    this.outbox.setOutcome(fn);
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
    return this.store.shown();
  }

  /** system:ping every `ms` from now on; null or 0 stops it. */
  setPingInterval(ms: number | null): void {
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = ms ? setInterval(() => this.pingNow(), ms) : undefined;
  }

  sentMessages(): MessageRecord[] {
    return this.outbox.snapshot();
  }

  received(): IncomingRecord[] {
    return this.inbox.received();
  }

  webhooks(): Webhook[] {
    return this.hooks.list();
  }

  webhookDeliveries(): DeliveryRecord[] {
    return this.sender.deliveries();
  }

  /** Resolves once no state change is scheduled and no webhook is waiting to be (re)sent. */
  webhooksSettled(): Promise<void> {
    return this.scheduler.settled();
  }

  /** An SMS arrives on SIM number `slot` (1-based, as `simNumber`); raises sms:received. */
  injectSms(m: { slot: number; from: string; text: string; at?: number }): string {
    return this.inbox.injectSms(m);
  }

  /** An MMS arrives on SIM number `slot` and finishes downloading: raises mms:downloaded. */
  injectMms(m: IncomingMms): string {
    return this.inbox.injectMms(m);
  }

  pingNow(): void {
    this.hooks.fire('system:ping', { health: phoneHealth(this.outbox.all(), this.o) });
  }

  private async handle(
    req: IncomingMessage,
    res: ServerResponse,
    api: Parameters<typeof apiHandler>[0],
  ): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://phone');
    const body = await readBodyOrRefuse(req, res, MAX_BODY, {
      status: 413,
      json: { message: 'Payload Too Large' },
    });
    if (body === undefined) return;
    const method = req.method ?? 'GET';
    const path = url.pathname;
    try {
      if (this.o.controlApi && path.startsWith('/sim/')) {
        writeReply(res, await controlHandler(this, { method, path, body }));
        return;
      }
      writeReply(
        res,
        apiHandler(api, {
          method,
          path,
          query: url.searchParams,
          body,
          authorization: req.headers.authorization,
        }),
      );
    } catch (err) {
      writeReply(res, { status: 500, json: { message: err instanceof Error ? err.message : String(err) } });
    }
  }
}

// The device's behaviour behind the HTTP API: status subscription and pushes, SIM lifecycle,
// commands, inbox, tasks and reboot. GatewaySim (device.ts) is the public face of this.
import { type CarrierProfile, carrierProfile, DEFAULT_CARRIER, Timers } from '@simdock/sim-kit';
import { Batcher, MAX_TIMER_MS } from './batcher.ts';
import { MAX_SAFE_SEED, macFor, normaliseMac } from './identity.ts';
import { Inbox } from './inbox.ts';
import { DeviceModel, type PortRef, type Slot, type SlotState } from './model.ts';
import { type NetworkMember, SimNetwork, sameNumber } from './network.ts';
import { DEFAULT_FAULTS, type Faults, type SimOptions } from './options.ts';
import {
  canSend,
  type DevStatus,
  nowSeconds,
  type PortEntry,
  type RecvRow,
  ST,
  scts,
  stText,
  utf8ToBase64,
} from './protocol.ts';
import { Pusher } from './pusher.ts';
import { type OutcomeFn, TaskEngine } from './tasks.ts';

const SMSC = '+12063130004';

export interface ResolvedOptions {
  ports: number;
  slots: number;
  username: string;
  password: string;
  mac: string;
  host: string;
  port: number;
  seed: number;
  withNumbers: boolean;
  /** Carrier profiles, round-robin over ports. */
  carriers: CarrierProfile[];
  ip: string;
  ver: string;
  pushIntervalMs: number | undefined;
  sendDelayMs: number;
  registerDelayMs: number;
  dlrDelayMs: number;
  rebootOfflineMs: number;
  reportMaxDelayMs: number;
  pushTimeoutMs: number;
  maxQueuedTasks: number;
  controlApi: boolean;
  /** "N" (every slot of port N) or "N.SS" (one slot). */
  failingPorts: string[];
}

export function resolveOptions(o: SimOptions): ResolvedOptions {
  const seed = o.seed ?? Math.floor(Math.random() * MAX_SAFE_SEED);
  const int = (v: number | undefined, dflt: number, min: number, name: string) => {
    const n = v ?? dflt;
    if (!Number.isInteger(n) || n < min) throw new Error(`gateway-sim: ${name} must be an integer >= ${min}`);
    return n;
  };
  return {
    ports: int(o.ports, 16, 1, 'ports'),
    slots: int(o.slots, 1, 1, 'slots'),
    username: o.username ?? 'root',
    password: o.password ?? 'root',
    mac: o.mac ? normaliseMac(o.mac) : macFor(seed),
    host: o.host ?? '127.0.0.1',
    port: int(o.port, 0, 0, 'port'),
    seed: int(seed, 0, 0, 'seed'),
    withNumbers: o.withNumbers ?? true,
    carriers: (o.carriers?.length ? o.carriers : [DEFAULT_CARRIER]).map(carrierProfile),
    ip: o.ip ?? `192.168.1.${2 + (seed % 250)}`,
    ver: o.ver ?? '608-520-840-841-100-0F0',
    pushIntervalMs: o.pushIntervalMs,
    sendDelayMs: o.sendDelayMs ?? 50,
    registerDelayMs: o.registerDelayMs ?? 100,
    dlrDelayMs: o.dlrDelayMs ?? 100,
    rebootOfflineMs: o.rebootOfflineMs ?? 1000,
    reportMaxDelayMs: o.reportMaxDelayMs ?? Number.POSITIVE_INFINITY,
    pushTimeoutMs: o.pushTimeoutMs ?? 3000,
    maxQueuedTasks: o.maxQueuedTasks ?? 10_000,
    controlApi: o.controlApi ?? false,
    failingPorts: (o.failingPorts ?? []).map((p) => {
      const m = /^(\d+)(?:\.(\d+))?$/.exec(p.trim());
      if (!m) throw new Error(`gateway-sim: failingPorts entries look like 3 or 3.01, not "${p}"`);
      return m[2] === undefined ? String(Number(m[1])) : `${Number(m[1])}.${m[2].padStart(2, '0')}`;
    }),
  };
}

export class DeviceCore implements NetworkMember {
  readonly model: DeviceModel;
  readonly inbox = new Inbox();
  readonly tasks: TaskEngine;
  readonly pusher: Pusher;
  readonly network: SimNetwork;
  faults: Faults = { ...DEFAULT_FAULTS };
  ip: string;

  statusUrl: string | undefined;
  period = 60;
  pushAllSims = false;
  smsUrl: string | undefined;
  srUrl: string | undefined;
  smsCnt = 1;
  smsPrd = 30;
  outcome: OutcomeFn = () => 'ok';
  rebooting = false;

  private devSeq = 0;
  private pushTimer: NodeJS.Timeout | undefined;
  private readonly timers = new Timers();
  private readonly smsBatch: Batcher<RecvRow>;
  private stopped = false;
  private rebootTimer: NodeJS.Timeout | undefined;
  private wakeReboot: (() => void) | undefined;

  constructor(
    readonly opts: ResolvedOptions,
    network: SimNetwork | undefined,
    /** Called when reachability changes (fault or reboot); resolves once the listener follows. */
    private readonly onReachability: (online: boolean) => Promise<void>,
  ) {
    this.ip = opts.ip;
    this.model = new DeviceModel(
      {
        ports: opts.ports,
        slots: opts.slots,
        seed: opts.seed,
        withNumbers: opts.withNumbers,
        carriers: opts.carriers,
      },
      (slot) => this.pushPortStatus(slot),
    );
    this.pusher = new Pusher(() => ({ ...this.faults, offline: this.offline }), opts.pushTimeoutMs);
    this.tasks = new TaskEngine({
      model: this.model,
      sendDelayMs: opts.sendDelayMs,
      maxQueuedTasks: opts.maxQueuedTasks,
      reportMaxDelayMs: opts.reportMaxDelayMs,
      outcome: (t) => (this.refusedByNetwork(t.port) ? 'fail' : this.outcome(t)),
      report: (url, body) => this.pusher.push(url, body),
      delivered: (slot, to, text, ts, dr) => this.delivered(slot, to, text, ts, dr),
    });
    this.smsBatch = new Batcher<RecvRow>((rows) => {
      if (this.smsUrl)
        void this.pusher.push(this.smsUrl, { type: 'recv-sms', sms_num: rows.length, sms: rows });
    }, opts.reportMaxDelayMs);
    this.network = network ?? new SimNetwork();
    this.network.join(this);
  }

  /** A port of `failingPorts`: the network refuses its sends. */
  private refusedByNetwork(port: string): boolean {
    const f = this.opts.failingPorts;
    return f.length > 0 && (f.includes(port) || f.includes(port.split('.')[0]!));
  }

  get offline(): boolean {
    return this.faults.offline || this.rebooting;
  }

  checkAuth(q: URLSearchParams): boolean {
    return q.get('username') === this.opts.username && q.get('password') === this.opts.password;
  }

  // ---- status ----------------------------------------------------------------------------

  portEntry(slot: Slot): PortEntry {
    const st = this.faults.stFormat === 'text' ? stText(slot.st) : slot.st;
    if (!slot.inserted) return { port: slot.port, sim: '', seq: slot.seq, st, imei: slot.imei };
    return {
      port: slot.port,
      sim: '',
      seq: slot.seq,
      st,
      bal: slot.bal,
      opr: slot.opr,
      sn: slot.sn,
      imei: slot.imei,
      imsi: slot.imsi,
      iccid: slot.iccid,
      sig: slot.sig,
      active: slot.active ? 1 : 0,
      inserted: 1,
    };
  }

  devStatus(expires: number, allSims: boolean): DevStatus {
    const slots = allSims ? this.model.allSlots() : this.model.ports.map((p) => this.model.activeSlot(p.n)!);
    return {
      type: 'dev-status',
      seq: ++this.devSeq,
      expires,
      mac: this.opts.mac,
      ip: this.ip,
      ver: this.opts.ver,
      'max-ports': this.opts.ports,
      [this.faults.maxSlotsSpelling]: this.opts.slots,
      status: slots.map((s) => this.portEntry(s)),
    };
  }

  /** goip_get_status with `url`: remember where to push; period 0 stops the reports. */
  subscribe(url: string, period: number, allSims: boolean): void {
    this.pushAllSims = allSims;
    if (period <= 0) {
      this.statusUrl = undefined;
      this.stopPushTimer();
      return;
    }
    this.statusUrl = url;
    this.period = period;
    this.startPushTimer(true);
  }

  private startPushTimer(pushNow: boolean): void {
    this.stopPushTimer();
    if (!this.statusUrl || this.stopped) return;
    const ms = Math.max(10, Math.min(this.opts.pushIntervalMs ?? this.period * 1000, MAX_TIMER_MS));
    this.pushTimer = setInterval(() => void this.pushStatusNow(), ms);
    this.pushTimer.unref();
    // The first report goes out straight away so a freshly scanned device shows online at once.
    if (pushNow) void this.pushStatusNow();
  }

  private stopPushTimer(): void {
    clearInterval(this.pushTimer);
    this.pushTimer = undefined;
  }

  pushStatusNow(): Promise<void> {
    if (!this.statusUrl || this.offline || this.stopped) return Promise.resolve();
    return this.pusher.push(this.statusUrl, this.devStatus(180, this.pushAllSims));
  }

  private pushPortStatus(slot: Slot): void {
    if (this.statusUrl)
      void this.pusher.push(this.statusUrl, { type: 'port-status', ...this.portEntry(slot) });
  }

  // ---- SIM lifecycle and commands ----------------------------------------------------------

  /** Slots a command addresses: a slot, or every slot of a port. */
  targets(refs: PortRef[]): Slot[] {
    return refs.flatMap((r) =>
      r.slot === undefined ? this.model.port(r.port)!.slots : [this.model.slotAt(r.port, r.slot)!],
    );
  }

  lock(slots: Slot[]): void {
    for (const s of slots) {
      s.locked = true;
      this.model.setSt(s, this.model.restingSt(s));
    }
  }

  unlock(slots: Slot[]): void {
    for (const s of slots) {
      s.locked = false;
      this.model.setSt(s, this.model.restingSt(s));
    }
  }

  /** Make a slot the port's active one: the old one goes idle, the new one registers (st 2 → 3). */
  switchTo(portNo: number, slotNo: number | undefined): void {
    const port = this.model.port(portNo)!;
    const target = slotNo ?? (port.activeSlot % port.slots.length) + 1;
    const old = port.slots[port.activeSlot - 1]!;
    const next = port.slots[target - 1]!;
    if (old !== next) {
      old.active = false;
      this.model.setSt(old, this.model.restingSt(old));
      port.activeSlot = target;
      next.active = true;
    }
    this.register(next);
  }

  /** Module restart: the active slot registers again. */
  resetPort(portNo: number): void {
    this.register(this.model.activeSlot(portNo)!);
  }

  private register(slot: Slot): void {
    if (!slot.inserted || slot.locked) {
      this.model.setSt(slot, this.model.restingSt(slot));
      return;
    }
    this.model.setSt(slot, ST.registering);
    this.timers.later(this.opts.registerDelayMs, () => {
      if (slot.active && slot.st === ST.registering) this.model.setSt(slot, this.model.restingSt(slot));
    });
  }

  setSimNumber(slot: Slot, sn: string): void {
    slot.sn = sn;
    this.model.changed(slot);
  }

  insertSim(slot: Slot, sim?: Partial<SlotState>): void {
    this.model.insert(slot, sim);
  }

  // ---- SMS ----------------------------------------------------------------------------------

  /** Store an incoming row and push it (batched by sms_cnt / sms_prd). */
  receive(row: RecvRow): number {
    const id = this.inbox.add(row);
    this.smsBatch.add(row, this.smsCnt, this.smsPrd * 1000);
    return id;
  }

  injectSms(m: { port: string; from: string; text: string; ts?: number; to?: string }): number {
    const slot = this.model.find(m.port);
    if (!slot) throw new Error(`gateway-sim: no such port ${m.port}`);
    slot.stats.received++;
    return this.receive([0, slot.port, m.ts ?? nowSeconds(), m.from, m.to ?? slot.sn, utf8ToBase64(m.text)]);
  }

  receiveFromNetwork(to: string, from: string, text: string): boolean {
    if (this.offline || this.stopped) return false;
    const slot = this.model
      .allSlots()
      .find((s) => s.inserted && s.active && canSend(s.st) && sameNumber(s.msisdn, to));
    if (!slot) return false;
    this.injectSms({ port: slot.port, from, text });
    return true;
  }

  private delivered(slot: Slot, to: string, text: string, ts: number, dr: boolean): void {
    const sender = slot.msisdn;
    if (sender) this.network.deliver(to, sender, text);
    if (dr) {
      const port = slot.port;
      this.timers.later(this.opts.dlrDelayMs, () =>
        this.receive([1, port, nowSeconds(), SMSC, to, `0 ${scts(ts)}`]),
      );
    }
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  async setFaults(f: Partial<Faults>): Promise<void> {
    const wasOffline = this.offline;
    // Only known switches are taken (the control API passes user JSON through).
    const known = Object.entries(f).filter(([k, v]) => k in DEFAULT_FAULTS && v !== undefined);
    this.faults = { ...this.faults, ...Object.fromEntries(known) };
    if (wasOffline !== this.offline) await this.onReachability(!this.offline);
  }

  /** Restart: offline for a while; queues, inbox (new ssrc) and dev seq start over. */
  async reboot(offlineMs = this.opts.rebootOfflineMs): Promise<void> {
    if (this.rebooting || this.stopped) return;
    const wasOffline = this.offline;
    this.rebooting = true;
    if (!wasOffline) await this.onReachability(false);
    this.stopPushTimer();
    this.timers.clear();
    this.tasks.clear();
    this.inbox.reset();
    this.smsBatch.clear();
    this.devSeq = 0;
    for (const slot of this.model.allSlots()) slot.st = this.model.restingSt(slot);
    await new Promise<void>((resolve) => {
      this.wakeReboot = resolve;
      this.rebootTimer = setTimeout(resolve, offlineMs);
    });
    clearTimeout(this.rebootTimer);
    this.rebooting = false;
    if (this.stopped) return;
    if (!this.offline) await this.onReachability(true);
    this.startPushTimer(true);
  }

  stop(): void {
    this.stopped = true;
    this.wakeReboot?.();
    this.stopPushTimer();
    this.timers.clear();
    this.tasks.clear();
    this.smsBatch.clear();
    this.pusher.stop();
    this.network.leave(this);
  }
}

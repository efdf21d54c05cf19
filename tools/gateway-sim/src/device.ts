// GatewaySim: one simulated Ejoin-style SIM gateway on its own HTTP port.
import { hostUrl, type SimReply } from '@simdock/sim-kit';
import { controlHandler } from './control.ts';
import { DeviceCore, resolveOptions } from './core.ts';
import { goipHandler } from './handlers.ts';
import type { Slot, SlotState } from './model.ts';
import type { Faults, SimOptions } from './options.ts';
import type { PushRecord } from './pusher.ts';
import { SimServer } from './server.ts';
import type { OutcomeFn, SentRecord } from './tasks.ts';

export class GatewaySim {
  readonly url: string;
  readonly mac: string;

  private constructor(
    private readonly core: DeviceCore,
    private readonly server: SimServer,
    host: string,
  ) {
    this.url = hostUrl(host, server.port);
    this.mac = core.opts.mac;
  }

  static async start(opts: SimOptions = {}): Promise<GatewaySim> {
    const resolved = resolveOptions(opts);
    let server: SimServer | undefined;
    const core = new DeviceCore(
      resolved,
      opts.network,
      (online) => server?.setOnline(online) ?? Promise.resolve(),
    );
    const srv: SimServer = new SimServer({
      host: resolved.host,
      port: resolved.port,
      faults: () => core.faults,
      isOffline: () => core.offline,
      goip: goipHandler(core),
      control: resolved.controlApi ? (req): Promise<SimReply> => controlHandler(sim, req) : undefined,
    });
    server = srv;
    try {
      await srv.listen();
    } catch (err) {
      core.stop();
      throw err;
    }
    const sim: GatewaySim = new GatewaySim(core, srv, resolved.host);
    if (opts.smsUrl) core.smsUrl = opts.smsUrl;
    if (opts.statusUrl) core.subscribe(opts.statusUrl, opts.period ?? 60, false);
    return sim;
  }

  async stop(): Promise<void> {
    this.core.stop();
    await this.server.close();
  }

  // ---- state inspection ----------------------------------------------------------------------

  /** A copy of one slot ('2.01', '2B', or '2' for the active slot). */
  slot(port: string): SlotState | undefined {
    const s = this.core.model.find(port);
    return s ? publicSlot(s) : undefined;
  }

  slots(): SlotState[] {
    return this.core.model.allSlots().map(publicSlot);
  }

  get statusUrl(): string | undefined {
    return this.core.statusUrl;
  }

  get smsUrl(): string | undefined {
    return this.core.smsUrl;
  }

  get srUrl(): string | undefined {
    return this.core.srUrl;
  }

  /** Status push period in seconds, as last set by goip_get_status. */
  get period(): number {
    return this.core.period;
  }

  get ports(): number {
    return this.core.opts.ports;
  }

  get slotsPerPort(): number {
    return this.core.opts.slots;
  }

  get ip(): string {
    return this.core.ip;
  }

  get ssrc(): string {
    return this.core.inbox.ssrc;
  }

  get faults(): Faults {
    return { ...this.core.faults };
  }

  get offline(): boolean {
    return this.core.offline;
  }

  sentTasks(): SentRecord[] {
    return this.core.tasks.snapshot();
  }

  /** Recent push attempts (url, type, HTTP status or error), newest last. */
  pushLog(): PushRecord[] {
    return [...this.core.pusher.log];
  }

  /** Resolves when every queued push has been attempted. */
  pushesSettled(): Promise<void> {
    return this.core.pusher.idle();
  }

  // ---- test hooks ----------------------------------------------------------------------------

  injectSms(m: { port: string; from: string; text: string; ts?: number; to?: string }): number {
    return this.core.injectSms(m);
  }

  /**
   * Posts an incoming MMS to `url` as a device does (docs/devices-ejoin.md#mms): `multipart/related` with
   * a SMIL part, the text and the files, and base64 `Emms-From`/`Emms-To`/`Emms-Subject` headers.
   * The device's MMS inbox URL is set on its web UI, so the caller names it. Resolves to the status.
   */
  async pushMms(
    url: string,
    m: {
      port: string;
      from: string;
      subject?: string;
      text?: string;
      attachments: { contentType: string; data: Uint8Array }[];
    },
  ): Promise<number> {
    const slot = this.slot(m.port);
    if (!slot) throw new Error(`gateway-sim: no such port ${m.port}`);
    const b64 = (t: string) => Buffer.from(t, 'utf8').toString('base64');
    const boundary = `mms${Date.now().toString(36)}`;
    const chunks: Buffer[] = [];
    const part = (headers: string[], data: Buffer) => {
      chunks.push(
        Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`, 'latin1'),
        data,
        Buffer.from('\r\n'),
      );
    };
    part(
      ['Content-Type: application/smil', 'Content-ID: <smil>'],
      Buffer.from('<smil><body><par/></body></smil>'),
    );
    if (m.text)
      part(['Content-Type: text/plain; charset=utf-8', 'Content-ID: <text>'], Buffer.from(m.text, 'utf8'));
    for (const [i, a] of m.attachments.entries()) {
      part(
        [`Content-Type: ${a.contentType}`, `Content-ID: <file${i}>`, 'Content-Transfer-Encoding: base64'],
        Buffer.from(Buffer.from(a.data).toString('base64'), 'latin1'),
      );
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': `multipart/related; type="application/smil"; boundary=${boundary}`,
        'emms-subject': b64(m.subject ?? ''),
        'emms-from': b64(`${m.from}/TYPE=PLMN`),
        'emms-to': b64(`${slot.msisdn || slot.sn}/TYPE=PLMN`),
        date: new Date().toUTCString(),
      },
      body: Buffer.concat(chunks),
    });
    await res.arrayBuffer();
    return res.status;
  }

  /** Insert a SIM (the card last in the slot, else a new one); on an occupied slot it edits fields. */
  insertSim(port: string, sim?: Partial<SlotState>): void {
    this.core.insertSim(this.mustFind(port), sim);
  }

  removeSim(port: string): void {
    this.core.model.remove(this.mustFind(port));
  }

  /** A different card: new ICCID/IMSI/number, and no known `sn` unless given. */
  swapSim(port: string, sim?: Partial<SlotState>): void {
    this.core.model.swap(this.mustFind(port), sim);
  }

  setOutcome(fn: OutcomeFn): void {
    this.core.outcome = fn;
  }

  /** Resolves once the listener has followed an `offline` change. */
  setFaults(f: Partial<Faults>): Promise<void> {
    return this.core.setFaults(f);
  }

  /** Report a different LAN IP (same MAC), as after a DHCP change. */
  setIp(ip: string): void {
    this.core.ip = ip;
  }

  pushStatusNow(): Promise<void> {
    return this.core.pushStatusNow();
  }

  /** Offline for `offlineMs`, queues and inbox lost, new ssrc; resolves when back online. */
  reboot(offlineMs?: number): Promise<void> {
    return this.core.reboot(offlineMs);
  }

  private mustFind(port: string): Slot {
    const s = this.core.model.find(port);
    if (!s) throw new Error(`gateway-sim: no such port ${port}`);
    return s;
  }
}

function publicSlot(s: Slot): SlotState {
  return {
    port: s.port,
    iccid: s.iccid,
    imsi: s.imsi,
    imei: s.imei,
    sn: s.sn,
    msisdn: s.msisdn,
    cnum: s.cnum,
    opr: s.opr,
    st: s.st,
    sig: s.sig,
    bal: s.bal,
    active: s.active,
    inserted: s.inserted,
    locked: s.locked,
    seq: s.seq,
    ussd: { ...s.ussd },
  };
}

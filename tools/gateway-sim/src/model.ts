// Device state: ports (radio modules), their SIM slots, and the port-spec syntax of the API.
import { type CarrierProfile, oprText, seededRandom } from '@simdock/sim-kit';
import { carrierSim, imei } from './identity.ts';
import { ST } from './protocol.ts';

/** One SIM slot as the simulator sees it. `sn` is what the device reports; `msisdn` is the truth. */
export interface SlotState {
  /** 'N.SS', e.g. '2.01'. */
  port: string;
  iccid: string;
  imsi: string;
  imei: string;
  /** The number the device knows (reported as `sn`; may be ''). */
  sn: string;
  /** The SIM's real number: used for loop-back delivery, USSD own-number and AT+CNUM. */
  msisdn: string;
  /** Whether the MSISDN is written on the SIM (AT+CNUM answers it). */
  cnum: boolean;
  opr: string;
  st: number;
  sig: number;
  bal: string;
  /** The slot the port's module currently uses; only it can send. */
  active: boolean;
  inserted: boolean;
  locked: boolean;
  /** Per-slot counter, bumped on every port-status. */
  seq: number;
  /** USSD code → reply text (in addition to the built-in own-number codes). */
  ussd: Record<string, string>;
}

/** Identity fields that travel with a physical SIM. */
type SimIdentity = Pick<
  SlotState,
  'iccid' | 'imsi' | 'sn' | 'msisdn' | 'cnum' | 'opr' | 'sig' | 'bal' | 'ussd'
>;

export interface Slot extends SlotState {
  readonly portNo: number;
  readonly slotNo: number;
  /** `n` of `sim_number(n)`: (port-1)*slots + (slot-1). */
  readonly index: number;
  /** The SIM last seen in this slot, so a remove + insert puts the same card back. */
  lastSim?: SimIdentity;
  stats: { received: number; sentOk: number; sentFailed: number };
}

export interface Port {
  readonly n: number;
  readonly slots: Slot[];
  activeSlot: number;
}

export function formatPort(portNo: number, slotNo: number): string {
  return `${portNo}.${String(slotNo).padStart(2, '0')}`;
}

/** A port, or one slot of it when `slot` is set. */
export interface PortRef {
  port: number;
  slot?: number;
}

/**
 * Parse the API's port syntax: "3", "3.02", "3B", "1A,2B", "4-32", "all", "*".
 * Returns undefined when any part is malformed or out of range.
 */
export function parsePortSpec(spec: string, maxPorts: number, slotsPerPort: number): PortRef[] | undefined {
  const out: PortRef[] = [];
  for (const raw of spec.split(',')) {
    const tok = raw.trim();
    if (tok === '') continue;
    const refs = parseToken(tok, maxPorts, slotsPerPort);
    if (!refs) return undefined;
    out.push(...refs);
  }
  return out.length > 0 ? out : undefined;
}

function parseToken(tok: string, maxPorts: number, slotsPerPort: number): PortRef[] | undefined {
  const okPort = (p: number) => Number.isInteger(p) && p >= 1 && p <= maxPorts;
  const okSlot = (s: number) => Number.isInteger(s) && s >= 1 && s <= slotsPerPort;
  if (tok === 'all' || tok === '*') return Array.from({ length: maxPorts }, (_, i) => ({ port: i + 1 }));
  const dotted = tok.match(/^(\d+)\.(\d+)$/);
  if (dotted) {
    const ref = { port: Number(dotted[1]), slot: Number(dotted[2]) };
    return okPort(ref.port) && okSlot(ref.slot) ? [ref] : undefined;
  }
  const lettered = tok.match(/^(\d+)([A-Za-z])$/);
  if (lettered) {
    const ref = { port: Number(lettered[1]), slot: lettered[2]!.toUpperCase().charCodeAt(0) - 64 };
    return okPort(ref.port) && okSlot(ref.slot) ? [ref] : undefined;
  }
  const range = tok.match(/^(\d+)-(\d+)$/);
  if (range) {
    const a = Number(range[1]);
    const b = Number(range[2]);
    if (!okPort(a) || !okPort(b) || a > b) return undefined;
    return Array.from({ length: b - a + 1 }, (_, i) => ({ port: a + i }));
  }
  if (/^\d+$/.test(tok) && okPort(Number(tok))) return [{ port: Number(tok) }];
  return undefined;
}

export interface ModelOptions {
  ports: number;
  slots: number;
  seed: number;
  withNumbers: boolean;
  /** Port N's SIMs are of carriers[(N - 1) % length]; a swap or a fresh insert stays on it. */
  carriers: CarrierProfile[];
}

/** Ports and slots plus the SIM lifecycle. Every visible change is reported through `onChange`. */
export class DeviceModel {
  readonly ports: Port[] = [];
  private serial = 0;
  private readonly rand: () => number;

  constructor(
    readonly opts: ModelOptions,
    private readonly onChange: (slot: Slot) => void,
  ) {
    this.rand = seededRandom(opts.seed ^ 0x9e3779b9);
    for (let p = 1; p <= opts.ports; p++) {
      const slots: Slot[] = [];
      for (let s = 1; s <= opts.slots; s++) {
        const index = (p - 1) * opts.slots + (s - 1);
        const sim = this.newSim(p, opts.withNumbers);
        slots.push({
          ...sim,
          port: formatPort(p, s),
          portNo: p,
          slotNo: s,
          index,
          imei: imei(opts.seed, index),
          active: s === 1,
          inserted: true,
          locked: false,
          st: s === 1 ? ST.registered : ST.idle,
          seq: 1,
          stats: { received: 0, sentOk: 0, sentFailed: 0 },
        });
      }
      this.ports.push({ n: p, slots, activeSlot: 1 });
    }
  }

  private newSim(portNo: number, withNumber: boolean): SimIdentity {
    const serial = this.serial++;
    const carrier = this.opts.carriers[(portNo - 1) % this.opts.carriers.length]!;
    const { msisdn, iccid, imsi } = carrierSim(carrier, this.opts.seed, serial);
    return {
      iccid,
      imsi,
      msisdn,
      sn: withNumber ? msisdn : '',
      cnum: withNumber,
      opr: oprText(carrier),
      sig: 18 + Math.floor(this.rand() * 14),
      bal: '0.00',
      ussd: {},
    };
  }

  get slotsPerPort(): number {
    return this.opts.slots;
  }

  allSlots(): Slot[] {
    return this.ports.flatMap((p) => p.slots);
  }

  port(n: number): Port | undefined {
    return this.ports[n - 1];
  }

  activeSlot(portNo: number): Slot | undefined {
    const p = this.port(portNo);
    return p?.slots[p.activeSlot - 1];
  }

  slotAt(portNo: number, slotNo: number): Slot | undefined {
    return this.port(portNo)?.slots[slotNo - 1];
  }

  slotByIndex(n: number): Slot | undefined {
    return this.allSlots()[n];
  }

  /** Resolve 'N.SS', 'NA' or 'N' (the active slot) to one slot. */
  find(spec: string): Slot | undefined {
    const refs = parsePortSpec(spec, this.opts.ports, this.opts.slots);
    if (refs?.length !== 1) return undefined;
    const ref = refs[0]!;
    return ref.slot === undefined ? this.activeSlot(ref.port) : this.slotAt(ref.port, ref.slot);
  }

  /** The st a slot rests in when nothing is in progress. */
  restingSt(slot: Slot): number {
    if (!slot.inserted) return ST.noSim;
    if (slot.locked) return ST.userLocked;
    if (!slot.active) return ST.idle;
    return ST.registered;
  }

  setSt(slot: Slot, st: number): void {
    slot.st = st;
    this.changed(slot);
  }

  changed(slot: Slot): void {
    slot.seq++;
    this.onChange(slot);
  }

  private identityOf(slot: Slot): SimIdentity {
    const { iccid, imsi, sn, msisdn, cnum, opr, sig, bal, ussd } = slot;
    return { iccid, imsi, sn, msisdn, cnum, opr, sig, bal, ussd };
  }

  /** Put a SIM in: the card last seen here if any, else a fresh one; `sim` overrides fields. */
  insert(slot: Slot, sim: Partial<SlotState> = {}): void {
    const base = slot.inserted
      ? this.identityOf(slot)
      : (slot.lastSim ?? this.newSim(slot.portNo, this.opts.withNumbers));
    this.place(slot, base, sim);
  }

  /** Replace the SIM by a new card; it carries no known number unless `sim.sn` is given. */
  swap(slot: Slot, sim: Partial<SlotState> = {}): void {
    this.place(slot, this.newSim(slot.portNo, false), sim);
  }

  private place(slot: Slot, base: SimIdentity, sim: Partial<SlotState>): void {
    Object.assign(slot, base, pickSimFields(sim));
    slot.inserted = true;
    slot.lastSim = this.identityOf(slot);
    slot.st = sim.st ?? this.restingSt(slot);
    this.changed(slot);
  }

  remove(slot: Slot): void {
    if (slot.inserted) slot.lastSim = this.identityOf(slot);
    Object.assign(slot, {
      inserted: false,
      iccid: '',
      imsi: '',
      sn: '',
      msisdn: '',
      cnum: false,
      opr: '',
      sig: 0,
    });
    slot.st = ST.noSim;
    this.changed(slot);
  }
}

/** Fields a caller may set on a SIM; placement fields (port, active, seq...) stay the device's. */
function pickSimFields(sim: Partial<SlotState>): Partial<SlotState> {
  const { port: _p, active: _a, inserted: _i, seq: _s, st: _st, ...rest } = sim;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
}

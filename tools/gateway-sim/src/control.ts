// /sim/* control API for the CLI. Unauthenticated on purpose: it is a test tool and must only
// listen where nobody else can reach it.
import type { SlotState } from './model.ts';
import type { Faults } from './options.ts';
import type { PushRecord } from './pusher.ts';
import type { SimReply, SimRequest } from './server.ts';
import type { Outcome, OutcomeFn, SentRecord } from './tasks.ts';

/** What the control API drives: the simulator (GatewaySim), described here so neither file imports the other. */
export interface ControlledSim {
  readonly url: string;
  readonly mac: string;
  readonly ip: string;
  readonly ports: number;
  readonly slotsPerPort: number;
  readonly statusUrl: string | undefined;
  readonly smsUrl: string | undefined;
  readonly srUrl: string | undefined;
  readonly period: number;
  readonly ssrc: string;
  readonly offline: boolean;
  readonly faults: Faults;
  slot(port: string): SlotState | undefined;
  slots(): SlotState[];
  sentTasks(): SentRecord[];
  pushLog(): PushRecord[];
  injectSms(m: { port: string; from: string; text: string; ts?: number; to?: string }): number;
  insertSim(port: string, sim?: Partial<SlotState>): void;
  removeSim(port: string): void;
  swapSim(port: string, sim?: Partial<SlotState>): void;
  setOutcome(fn: OutcomeFn): void;
  setFaults(f: Partial<Faults>): Promise<void>;
  pushStatusNow(): Promise<void>;
  reboot(offlineMs?: number): Promise<void>;
}

const OUTCOMES = new Set<Outcome>(['ok', 'fail', 'unregistered']);

export async function controlHandler(sim: ControlledSim, req: SimRequest): Promise<SimReply> {
  const key = `${req.method} ${req.path}`;
  let body: Record<string, unknown> = {};
  if (req.body.trim() !== '') {
    try {
      const v: unknown = JSON.parse(req.body);
      if (v && typeof v === 'object' && !Array.isArray(v)) body = v as Record<string, unknown>;
    } catch {
      return bad('body must be a JSON object');
    }
  }
  const port = typeof body.port === 'string' ? body.port : undefined;
  try {
    switch (key) {
      case 'GET /sim/state':
        return { json: state(sim) };
      case 'GET /sim/sent':
        return { json: sim.sentTasks() };
      case 'GET /sim/pushes':
        return { json: sim.pushLog() };
      case 'POST /sim/inject-sms': {
        if (!port || typeof body.from !== 'string' || typeof body.text !== 'string') {
          return bad('port, from and text are required');
        }
        const id = sim.injectSms({
          port,
          from: body.from,
          text: body.text,
          ts: typeof body.ts === 'number' ? body.ts : undefined,
          to: typeof body.to === 'string' ? body.to : undefined,
        });
        return { json: { id } };
      }
      case 'POST /sim/faults':
        await sim.setFaults(body as Partial<Faults>);
        return { json: sim.faults };
      case 'POST /sim/insert-sim':
      case 'POST /sim/swap-sim':
      case 'POST /sim/remove-sim': {
        if (!port) return bad('port is required');
        const { port: _p, ...sim_ } = body;
        if (key.endsWith('insert-sim')) sim.insertSim(port, sim_);
        else if (key.endsWith('swap-sim')) sim.swapSim(port, sim_);
        else sim.removeSim(port);
        return { json: sim.slot(port) };
      }
      case 'POST /sim/outcome': {
        // {outcome:'fail'} for every recipient, plus optional per-number overrides {numbers:{"1555...":"fail"}}.
        const dflt = body.outcome ?? 'ok';
        const numbers = (body.numbers ?? {}) as Record<string, unknown>;
        if (
          !OUTCOMES.has(dflt as Outcome) ||
          !Object.values(numbers).every((v) => OUTCOMES.has(v as Outcome))
        ) {
          return bad("outcomes are 'ok' | 'fail' | 'unregistered'");
        }
        sim.setOutcome((t) => (numbers[t.to] as Outcome | undefined) ?? (dflt as Outcome));
        return { json: { outcome: dflt, numbers } };
      }
      case 'POST /sim/push-status':
        await sim.pushStatusNow();
        return { json: { ok: true } };
      case 'POST /sim/reboot': {
        const ms = typeof body.offlineMs === 'number' ? body.offlineMs : undefined;
        return { status: 202, json: { ok: true }, after: () => void sim.reboot(ms) };
      }
      default:
        return { status: 404, json: { error: 'unknown control route' } };
    }
  } catch (err) {
    return bad(err instanceof Error ? err.message : String(err));
  }
}

function state(sim: ControlledSim) {
  return {
    url: sim.url,
    mac: sim.mac,
    ip: sim.ip,
    ports: sim.ports,
    slotsPerPort: sim.slotsPerPort,
    statusUrl: sim.statusUrl ?? null,
    smsUrl: sim.smsUrl ?? null,
    srUrl: sim.srUrl ?? null,
    period: sim.period,
    ssrc: sim.ssrc,
    offline: sim.offline,
    faults: sim.faults,
    slots: sim.slots(),
  };
}

function bad(error: string): SimReply {
  return { status: 400, json: { error } };
}

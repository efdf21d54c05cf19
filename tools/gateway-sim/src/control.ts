// /sim/* control API for the CLI. Unauthenticated on purpose: it is a test tool and must only
// listen where nobody else can reach it.
import { type ControlApi, handleControl, type SimReply } from '@simdock/sim-kit';
import type { SlotState } from './model.ts';
import type { Faults } from './options.ts';
import type { PushRecord } from './pusher.ts';
import type { SimRequest } from './server.ts';
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

function bad(error: string): SimReply {
  return { status: 400, json: { error } };
}

/** A SIM change on `body.port`, answered with the slot as it is now. */
function simChange(sim: ControlledSim, change: (port: string, fields: Partial<SlotState>) => void) {
  return (body: Record<string, unknown>): SimReply => {
    const { port, ...fields } = body;
    if (typeof port !== 'string') return bad('port is required');
    change(port, fields);
    return { json: sim.slot(port) };
  };
}

function controlApi(sim: ControlledSim): ControlApi {
  return {
    error: (error) => ({ error }),
    routes: {
      'GET /sim/state': () => ({ json: state(sim) }),
      'GET /sim/sent': () => ({ json: sim.sentTasks() }),
      'GET /sim/pushes': () => ({ json: sim.pushLog() }),
      'POST /sim/inject-sms': (body) => {
        const { port, from, text, ts, to } = body;
        if (typeof port !== 'string' || typeof from !== 'string' || typeof text !== 'string') {
          return bad('port, from and text are required');
        }
        const id = sim.injectSms({
          port,
          from,
          text,
          ts: typeof ts === 'number' ? ts : undefined,
          to: typeof to === 'string' ? to : undefined,
        });
        return { json: { id } };
      },
      'POST /sim/faults': async (body) => {
        await sim.setFaults(body as Partial<Faults>);
        return { json: sim.faults };
      },
      'POST /sim/insert-sim': simChange(sim, (port, fields) => sim.insertSim(port, fields)),
      'POST /sim/swap-sim': simChange(sim, (port, fields) => sim.swapSim(port, fields)),
      'POST /sim/remove-sim': simChange(sim, (port) => sim.removeSim(port)),
      'POST /sim/outcome': (body) => {
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
      },
      'POST /sim/push-status': async () => {
        await sim.pushStatusNow();
        return { json: { ok: true } };
      },
      'POST /sim/reboot': (body) => {
        const ms = typeof body.offlineMs === 'number' ? body.offlineMs : undefined;
        return { status: 202, json: { ok: true }, after: () => void sim.reboot(ms) };
      },
    },
  };
}

export function controlHandler(sim: ControlledSim, req: SimRequest): Promise<SimReply> {
  return handleControl(controlApi(sim), req);
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

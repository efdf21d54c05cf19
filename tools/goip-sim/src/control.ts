// /sim/* control API on the box's web port, for the CLI, the demo and people. Unauthenticated on
// purpose: it is a test tool and must only listen where nobody else can reach it.
import { type ControlApi, handleControl, type SimReply } from '@simdock/sim-kit';
import type { LineState } from './line.ts';
import type { SentSms } from './modem.ts';
import type { ReportHandle, ReportState } from './reports.ts';
import type { SendCount, SessionState } from './sessions.ts';
import type { WebRequest } from './web.ts';

/** What the control API drives (GoipSim), described here so neither file imports the other. */
export interface ControlledSim {
  readonly url: string;
  lines(): LineState[];
  sent(): SentSms[];
  sendCounts(): SendCount[];
  sessions(): SessionState[];
  reports(): ReportState[];
  receiveSms(n: number, m: { from: string; text: string; recvid?: number }): ReportHandle;
  call(n: number, from: string): ReportHandle;
  silence(n: number | 'all', on?: boolean): void;
  logout(n: number, on?: boolean): void;
  setFailingNumber(number: string, status: number | null): void;
  ignoreAcks(count: number): void;
  reboot(): Promise<void>;
}

function lineOf(body: Record<string, unknown>): number {
  if (typeof body.line !== 'number' || !Number.isInteger(body.line))
    throw new Error('line (1-based) is required');
  return body.line;
}

function stringOf(body: Record<string, unknown>, name: string): string {
  const v = body[name];
  if (typeof v !== 'string') throw new Error(`${name} is required`);
  return v;
}

const onOf = (body: Record<string, unknown>) => body.on !== false;

function controlApi(sim: ControlledSim): ControlApi {
  return {
    error: (error) => ({ error }),
    routes: {
      'GET /sim/state': () => ({ json: { url: sim.url, lines: sim.lines(), sessions: sim.sessions() } }),
      'GET /sim/sent': () => ({ json: { sent: sim.sent(), sendCounts: sim.sendCounts() } }),
      'GET /sim/reports': () => ({ json: sim.reports() }),
      'POST /sim/receive-sms': (body) => {
        const r = sim.receiveSms(lineOf(body), {
          from: stringOf(body, 'from'),
          text: stringOf(body, 'text'),
        });
        return { json: r.state };
      },
      'POST /sim/call': (body) => ({ json: sim.call(lineOf(body), stringOf(body, 'from')).state }),
      'POST /sim/silence': (body) => {
        sim.silence(body.line === undefined ? 'all' : lineOf(body), onOf(body));
        return { json: sim.lines() };
      },
      'POST /sim/logout': (body) => {
        sim.logout(lineOf(body), onOf(body));
        return { json: sim.lines() };
      },
      'POST /sim/failing-number': (body) => {
        const status = body.status;
        if (status !== null && (typeof status !== 'number' || !Number.isInteger(status))) {
          throw new Error('status must be an integer or null');
        }
        sim.setFailingNumber(stringOf(body, 'number'), status);
        return { json: { ok: true } };
      },
      'POST /sim/ignore-acks': (body) => {
        if (typeof body.count !== 'number' || body.count < 0) throw new Error('count must be a number ≥ 0');
        sim.ignoreAcks(body.count);
        return { json: { ok: true } };
      },
      'POST /sim/reboot': async () => {
        await sim.reboot();
        return { json: sim.lines() };
      },
    },
  };
}

export function controlHandler(sim: ControlledSim, req: WebRequest): Promise<SimReply> {
  return handleControl(controlApi(sim), req);
}

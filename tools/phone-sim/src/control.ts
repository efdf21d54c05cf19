// /sim/* control API for the CLI. Unauthenticated on purpose: it is a test tool and must only
// listen where nobody else can reach it.
import { type ControlApi, handleControl, type SimReply } from '@simdock/sim-kit';

/** Outcome names the control API accepts, mapped onto the simulator's outcomes. */
export type ControlOutcome = 'delivered' | 'sent' | 'failed';

/** What the control API drives (PhoneSim), described here so neither file imports the other. */
export interface ControlledPhone {
  readonly url: string;
  readonly baseUrl: string;
  readonly mode: string;
  readonly deviceId: string;
  sentMessages(): unknown[];
  received(): unknown[];
  webhooks(): unknown[];
  webhookDeliveries(): unknown[];
  injectSms(m: { slot: number; from: string; text: string }): string;
  setOutcome(fn: (sms: { phoneNumber: string }) => ControlOutcome | { failed: string }): void;
  pingNow(): void;
}

const OUTCOMES = new Set<string>(['delivered', 'sent', 'failed']);

function controlApi(sim: ControlledPhone): ControlApi {
  const ok = (json: unknown): SimReply => ({ status: 200, json });
  const bad = (message: string): SimReply => ({ status: 400, json: { message } });
  return {
    error: (message) => ({ message }),
    routes: {
      'GET /sim/state': () =>
        ok({
          url: sim.url,
          baseUrl: sim.baseUrl,
          mode: sim.mode,
          deviceId: sim.deviceId,
          webhooks: sim.webhooks(),
        }),
      'GET /sim/sent': () => ok(sim.sentMessages()),
      'GET /sim/received': () => ok(sim.received()),
      'GET /sim/deliveries': () => ok(sim.webhookDeliveries()),
      'POST /sim/inject-sms': ({ slot, from, text }) => {
        if (typeof slot !== 'number' || typeof from !== 'string' || typeof text !== 'string') {
          return bad('slot (1-based SIM number), from and text are required');
        }
        return ok({ messageId: sim.injectSms({ slot, from, text }) });
      },
      'POST /sim/outcome': (body) => {
        // {outcome:'failed', reason?} for every recipient, plus per-number overrides {numbers:{"+84…":"sent"}}.
        const dflt = body.outcome ?? 'delivered';
        const numbers = (body.numbers ?? {}) as Record<string, unknown>;
        const reason = typeof body.reason === 'string' ? body.reason : undefined;
        if (
          typeof dflt !== 'string' ||
          !OUTCOMES.has(dflt) ||
          typeof numbers !== 'object' ||
          !Object.values(numbers).every((v) => typeof v === 'string' && OUTCOMES.has(v))
        ) {
          return bad("outcomes are 'delivered' | 'sent' | 'failed'");
        }
        sim.setOutcome((s) => {
          const o = (numbers[s.phoneNumber] as ControlOutcome | undefined) ?? (dflt as ControlOutcome);
          return o === 'failed' && reason ? { failed: reason } : o;
        });
        return ok({ outcome: dflt, numbers, reason: reason ?? null });
      },
      'POST /sim/ping': () => {
        sim.pingNow();
        return ok({ ok: true });
      },
    },
  };
}

export function controlHandler(
  sim: ControlledPhone,
  req: { method: string; path: string; body: string },
): Promise<SimReply> {
  return handleControl(controlApi(sim), req);
}

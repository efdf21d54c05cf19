// /sim/* control API for the CLI. Unauthenticated on purpose: it is a test tool and must only
// listen where nobody else can reach it.

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

export interface ControlReply {
  status: number;
  json: unknown;
}

const OUTCOMES = new Set<string>(['delivered', 'sent', 'failed']);

export async function controlHandler(
  sim: ControlledPhone,
  method: string,
  path: string,
  raw: string,
): Promise<ControlReply> {
  let body: Record<string, unknown> = {};
  if (raw.trim() !== '') {
    try {
      const v: unknown = JSON.parse(raw);
      if (!v || typeof v !== 'object' || Array.isArray(v)) return bad('body must be a JSON object');
      body = v as Record<string, unknown>;
    } catch {
      return bad('body must be a JSON object');
    }
  }
  try {
    switch (`${method} ${path}`) {
      case 'GET /sim/state':
        return {
          status: 200,
          json: {
            url: sim.url,
            baseUrl: sim.baseUrl,
            mode: sim.mode,
            deviceId: sim.deviceId,
            webhooks: sim.webhooks(),
          },
        };
      case 'GET /sim/sent':
        return { status: 200, json: sim.sentMessages() };
      case 'GET /sim/received':
        return { status: 200, json: sim.received() };
      case 'GET /sim/deliveries':
        return { status: 200, json: sim.webhookDeliveries() };
      case 'POST /sim/inject-sms': {
        const { slot, from, text } = body;
        if (typeof slot !== 'number' || typeof from !== 'string' || typeof text !== 'string') {
          return bad('slot (1-based SIM number), from and text are required');
        }
        return { status: 200, json: { messageId: sim.injectSms({ slot, from, text }) } };
      }
      case 'POST /sim/outcome': {
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
        return { status: 200, json: { outcome: dflt, numbers, reason: reason ?? null } };
      }
      case 'POST /sim/ping':
        sim.pingNow();
        return { status: 200, json: { ok: true } };
      default:
        return { status: 404, json: { message: 'unknown control route' } };
    }
  } catch (err) {
    return bad(err instanceof Error ? err.message : String(err));
  }
}

function bad(message: string): ControlReply {
  return { status: 400, json: { message } };
}

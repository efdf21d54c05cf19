import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { App } from './http/types.ts';

// Prometheus metrics. Each server instance has its own registry (tests run several servers in one
// process; prom-client's global registry would mix them); modules reach it as `ctx.metrics` and
// the `metrics` module serves it at GET /metrics together with the process metrics.

/** Route label of a request no route matched (404s, the web app's page fallback). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Where a webhook failed: a provider's payment notification we refused, or one of ours not delivered. */
export type WebhookDirection = 'incoming' | 'outgoing';

/** How one dispatcher tick's claimed messages fared at their gateways (messaging's DispatchResult). */
export interface DispatchCounts {
  claimed: number;
  accepted: number;
  retried: number;
  failed: number;
  requeued: number;
}

let processRegistry: Registry | undefined;

/**
 * prom-client's default metrics (CPU, memory, event loop lag, GC, handles) describe the process,
 * not a server instance: collected once per process into their own registry (each collection
 * starts observers that are never stopped), and appended to every instance's scrape.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    // The event-loop delay histogram samples on a timer: at prom-client's default 10 ms that is 100
    // wake-ups a second, about 0.5 % of a core on an idle server. 5 a second still shows stalls.
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 200 });
  }
  return processRegistry;
}

export class AppMetrics {
  readonly registry = new Registry();
  // Process CPU is counted from the start of collection: start it with the first server.
  readonly process = processMetrics();
  readonly contentType = this.registry.contentType;

  readonly httpRequestDuration = new Histogram({
    name: 'simdock_http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status code (live streams excluded)',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly sseStreams = new Gauge({
    name: 'simdock_sse_streams_open',
    help: 'Live event streams (SSE) open on this process',
    registers: [this.registry],
  });

  readonly smsDispatched = new Counter({
    name: 'simdock_sms_dispatched_total',
    help: 'Queued messages the dispatcher handed to gateways, by outcome: accepted by the device, retried on another SIM, failed, requeued (busy or unreachable gateway), unanswered (no answer in time; the lease decides)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly otpLatency = new Histogram({
    name: 'simdock_otp_latency_seconds',
    help: 'From an incoming SMS being received by the server to a rental order having its code',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly webhookFailures = new Counter({
    name: 'simdock_webhook_failures_total',
    help: 'Payment webhooks refused (incoming, by reason) and code webhook deliveries that failed (outgoing: http_error or unreachable, each try)',
    labelNames: ['direction', 'reason'] as const,
    registers: [this.registry],
  });

  readonly signInPasswordChecks = new Counter({
    name: 'simdock_sign_in_password_checks_total',
    help: 'Sign-ins that reached the password check (argon2), by whether the username exists: the guesses the sign-in limits let through (an unknown username costs the same check)',
    labelNames: ['account'] as const,
    registers: [this.registry],
  });

  readonly smppBinds = new Counter({
    name: 'simdock_smpp_binds_total',
    help: 'SMPP binds accepted, by type (transmitter, receiver, transceiver)',
    labelNames: ['mode'] as const,
    registers: [this.registry],
  });

  readonly smppSubmits = new Counter({
    name: 'simdock_smpp_submits_total',
    help: 'SMPP submit_sm answered, by outcome: accepted, or refused with its SMPP status (hex); throttled ones are ESME_RTHROTTLED (0x58)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly smppReceipts = new Counter({
    name: 'simdock_smpp_receipts_total',
    help: 'SMPP delivery receipts queued for an account, and sent (acknowledged by its client)',
    labelNames: ['stage'] as const,
    registers: [this.registry],
  });

  /** Counts one dispatcher tick's messages by outcome. */
  dispatched(r: DispatchCounts): void {
    const unanswered = r.claimed - r.accepted - r.retried - r.failed - r.requeued;
    const outcomes = {
      accepted: r.accepted,
      retried: r.retried,
      failed: r.failed,
      requeued: r.requeued,
      unanswered,
    };
    for (const [outcome, n] of Object.entries(outcomes)) {
      if (n > 0) this.smsDispatched.inc({ outcome }, n);
    }
  }

  webhookFailed(direction: WebhookDirection, reason: string): void {
    this.webhookFailures.inc({ direction, reason });
  }

  /** The exposition text: this instance's metrics, then the process's. */
  async text(): Promise<string> {
    return `${await this.registry.metrics()}\n${await this.process.metrics()}`;
  }
}

/**
 * Times every request into the HTTP histogram, labelled with the route TEMPLATE (`/api/Order/:id`,
 * never the raw URL, so ids and secrets in paths never become labels); no route → `unmatched`.
 * Live streams (SSE) are counted by their gauge instead: a stream the server ended would otherwise
 * add how long a browser stayed (a stream the client drops never reaches onResponse at all).
 */
export function instrumentHttp(app: App, metrics: AppMetrics): void {
  // A callback hook, not an async one: no promise per request.
  app.addHook('onResponse', (req, reply, done) => {
    const type = reply.raw.getHeader('content-type');
    if (!(typeof type === 'string' && type.startsWith('text/event-stream'))) {
      metrics.httpRequestDuration.observe(
        {
          method: req.method,
          route: req.routeOptions.url ?? UNMATCHED_ROUTE,
          status_code: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
    }
    done();
  });
}

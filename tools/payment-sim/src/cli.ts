#!/usr/bin/env -S node --import tsx
// payment-sim CLI: a local NOWPayments stand-in with the /__sim/* control API.
// The control API has no authentication; never expose this port beyond a test machine.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { SimOptions } from './options.ts';
import { PaymentSim } from './sim.ts';

const USAGE = `Usage: payment-sim [options]
  --host ADDR                 listen address (127.0.0.1)
  --port N                    listen port (0 = random)
  --public-url URL            base of invoice_url (default: own URL)
  --api-key KEY               x-api-key the API accepts (sim-api-key)
  --ipn-secret SECRET         IPN secret ('' = no IPNs) (sim-ipn-secret)
  --email E --password P      dashboard login for POST /v1/auth
  --step-delay-ms N           time between status steps (1000)
  --ipn-timeout-ms N          an IPN answered later counts as failed (3000)
  --ipn-retries N             resends of a failed IPN (5)
  --ipn-retry-interval-ms N   interval between resends (60000)
  --dialect node|python       IPN encoder (node)
Then point the server at it: NOWPAYMENTS_API_URL=<url>/v1 with the same key and secret.
Control API (no auth, same port): GET /__sim/state, GET /__sim/invoices/:id,
  POST /__sim/invoices/:id/pay {outcome,amount?,payCurrency?}, POST /__sim/payments/:id/pay,
  POST /__sim/payments/:id/repeat-deposit {amount?,status?}, POST /__sim/payments/:id/status {status,ipn?},
  POST /__sim/payments/:id/resend, GET /__sim/ipn-log, GET|POST /__sim/modes, POST /__sim/reset,
  POST /__sim/settle {timeoutMs?}`;

export async function startFromArgs(
  argv: string[],
  log: (line: string) => void = (l) => console.log(l),
): Promise<PaymentSim | null> {
  const { values: v } = parseArgs({
    args: argv,
    strict: true,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'public-url': { type: 'string' },
      'api-key': { type: 'string' },
      'ipn-secret': { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      'step-delay-ms': { type: 'string' },
      'ipn-timeout-ms': { type: 'string' },
      'ipn-retries': { type: 'string' },
      'ipn-retry-interval-ms': { type: 'string' },
      dialect: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (v.help) {
    log(USAGE);
    return null;
  }
  const num = (name: string, s: string | undefined): number | undefined => {
    if (s === undefined) return undefined;
    const n = Number(s);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number`);
    return n;
  };
  if (v.dialect !== undefined && v.dialect !== 'node' && v.dialect !== 'python') {
    throw new Error('--dialect must be node or python');
  }
  const opts: SimOptions = {
    host: v.host,
    port: num('port', v.port),
    publicUrl: v['public-url'],
    apiKey: v['api-key'],
    ipnSecret: v['ipn-secret'],
    email: v.email,
    password: v.password,
    stepDelayMs: num('step-delay-ms', v['step-delay-ms']),
    ipnTimeoutMs: num('ipn-timeout-ms', v['ipn-timeout-ms']),
    ipnRetries: num('ipn-retries', v['ipn-retries']),
    ipnRetryIntervalMs: num('ipn-retry-interval-ms', v['ipn-retry-interval-ms']),
    modes: v.dialect ? { dialect: v.dialect as 'node' | 'python' } : undefined,
  };
  const sim = await PaymentSim.start(opts);
  log(JSON.stringify({ url: sim.url, apiUrl: sim.apiUrl, apiKey: sim.apiKey, ipnSecret: sim.ipnSecret }));
  return sim;
}

function isMain(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  startFromArgs(process.argv.slice(2)).then(
    (sim) => {
      if (!sim) return;
      const shutdown = () => void sim.stop().then(() => process.exit(0));
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      console.error(USAGE);
      process.exit(2);
    },
  );
}

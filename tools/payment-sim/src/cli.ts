#!/usr/bin/env -S node --import tsx
// payment-sim CLI: a local NOWPayments stand-in with the /__sim/* control API.
// The control API has no authentication; never expose this port beyond a test machine.
import { isMain, parseOptions, runCli } from '@simdock/sim-kit';
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
  const v = parseOptions(
    argv,
    {
      host: 'string',
      port: 'number',
      'public-url': 'string',
      'api-key': 'string',
      'ipn-secret': 'string',
      email: 'string',
      password: 'string',
      'step-delay-ms': 'number',
      'ipn-timeout-ms': 'number',
      'ipn-retries': 'number',
      'ipn-retry-interval-ms': 'number',
      dialect: 'string',
    },
    { nonNegative: true },
  );
  if (v.help) {
    log(USAGE);
    return null;
  }
  if (v.dialect !== undefined && v.dialect !== 'node' && v.dialect !== 'python') {
    throw new Error('--dialect must be node or python');
  }
  const opts: SimOptions = {
    host: v.host,
    port: v.port,
    publicUrl: v['public-url'],
    apiKey: v['api-key'],
    ipnSecret: v['ipn-secret'],
    email: v.email,
    password: v.password,
    stepDelayMs: v['step-delay-ms'],
    ipnTimeoutMs: v['ipn-timeout-ms'],
    ipnRetries: v['ipn-retries'],
    ipnRetryIntervalMs: v['ipn-retry-interval-ms'],
    modes: v.dialect ? { dialect: v.dialect as 'node' | 'python' } : undefined,
  };
  const sim = await PaymentSim.start(opts);
  log(JSON.stringify({ url: sim.url, apiUrl: sim.apiUrl, apiKey: sim.apiKey, ipnSecret: sim.ipnSecret }));
  return sim;
}

if (isMain(import.meta.url)) runCli(startFromArgs, USAGE);

#!/usr/bin/env -S node --import tsx
// phone-sim CLI: start one simulated SMSGate phone with the /sim/* control API enabled.
// The control API has no authentication; never expose this port beyond a test machine.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Mode } from './model.ts';
import { PhoneSim, type SlotConfig } from './phone.ts';

const USAGE = `Usage: phone-sim [options]
  --mode M              local | cloud | private (local)
  --host ADDR           listen address (127.0.0.1)
  --port N              listen port (0 = random; a real Local phone uses 8080)
  --username U          API login (sms)
  --password P          API password (password)
  --signing-key K       webhook signing key (simdock1)
  --sim NUMBER,ICCID,CARRIER   one per slot in order; "-" is an empty slot; a number "" is null
                        (default: one SIM +84901234567,8984048000000001234,Viettel)
  --device-id ID        device id (default: random, or seeded)
  --seed N              seed for ids
  --step-ms N           delay between state steps (5)
  --retry-base-ms N     webhook backoff base: retry n waits base × 2^(n−1) (10)
  --retry-count N       webhook attempts in all (6)
  --ping-interval-ms N  send system:ping at this interval
  --allow-http-webhooks accept http:// webhook URLs in every mode
Control API (no auth, same port): GET /sim/state, GET /sim/sent, GET /sim/received,
  GET /sim/deliveries, POST /sim/inject-sms {slot,from,text},
  POST /sim/outcome {outcome:'delivered'|'sent'|'failed',reason?,numbers?}, POST /sim/ping`;

const MODES = new Set<string>(['local', 'cloud', 'private']);

export function parseSim(spec: string): SlotConfig | null {
  if (spec === '-') return null;
  const [phoneNumber = '', iccid = '', carrierName = ''] = spec.split(',');
  return {
    phoneNumber: phoneNumber === '' ? null : phoneNumber,
    iccid: iccid === '' ? null : iccid,
    carrierName,
  };
}

export async function startFromArgs(
  argv: string[],
  log: (line: string) => void = (l) => console.log(l),
): Promise<PhoneSim> {
  const { values: v } = parseArgs({
    args: argv,
    strict: true,
    options: {
      mode: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      'signing-key': { type: 'string' },
      sim: { type: 'string', multiple: true },
      'device-id': { type: 'string' },
      seed: { type: 'string' },
      'step-ms': { type: 'string' },
      'retry-base-ms': { type: 'string' },
      'retry-count': { type: 'string' },
      'ping-interval-ms': { type: 'string' },
      'allow-http-webhooks': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (v.help) log(USAGE);
  const num = (name: string, s: string | undefined): number | undefined => {
    if (s === undefined) return undefined;
    const n = Number(s);
    if (!Number.isFinite(n)) throw new Error(`--${name} must be a number`);
    return n;
  };
  const mode = v.mode ?? 'local';
  if (!MODES.has(mode)) throw new Error('--mode must be local, cloud or private');
  const retryBase = num('retry-base-ms', v['retry-base-ms']);
  const retryCount = num('retry-count', v['retry-count']);
  const sim = await PhoneSim.start({
    mode: mode as Mode,
    host: v.host,
    port: num('port', v.port),
    username: v.username ?? 'sms',
    password: v.password ?? 'password',
    signingKey: v['signing-key'] ?? 'simdock1',
    slots: (v.sim ?? ['+84901234567,8984048000000001234,Viettel']).map(parseSim),
    deviceId: v['device-id'],
    seed: num('seed', v.seed),
    stepMs: num('step-ms', v['step-ms']),
    retry: {
      ...(retryBase !== undefined ? { baseMs: retryBase } : {}),
      ...(retryCount !== undefined ? { count: retryCount } : {}),
    },
    pingIntervalMs: num('ping-interval-ms', v['ping-interval-ms']),
    allowHttpWebhooks: v['allow-http-webhooks'] ?? false,
    controlApi: true,
  });
  log(
    JSON.stringify({
      url: sim.url,
      baseUrl: sim.baseUrl,
      mode: sim.mode,
      deviceId: sim.deviceId,
      username: sim.username,
    }),
  );
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

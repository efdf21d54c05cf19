#!/usr/bin/env -S node --import tsx
// phone-sim CLI: start one simulated SMSGate phone with the /sim/* control API enabled.
// The control API has no authentication; never expose this port beyond a test machine.
import { CARRIERS, isMain, parseOptions, runCli } from '@simdock/sim-kit';
import type { Mode } from './model.ts';
import type { CarrierSlot, SlotConfig } from './options.ts';
import { PhoneSim } from './phone.ts';

const USAGE = `Usage: phone-sim [options]
  --mode M              local | cloud | private (local)
  --host ADDR           listen address (127.0.0.1)
  --port N              listen port (0 = random; a real Local phone uses 8080)
  --username U          API login (sms)
  --password P          API password (password)
  --signing-key K       webhook signing key (simdock1)
  --sim NUMBER,ICCID,CARRIER   one per slot in order; "-" is an empty slot; a number "" is null
                        (default: one SIM +84901234567,8984048000000001234,Viettel)
  --sim CARRIER         a SIM of a carrier profile, number and ICCID drawn from --seed
                        (us-tmobile, de-vodafone, de-telekom, gb-ee, vn-viettel)
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

export function parseSim(spec: string): SlotConfig | CarrierSlot | null {
  if (spec === '-') return null;
  if (CARRIERS.some((c) => c.id === spec)) return { carrier: spec };
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
  const v = parseOptions(argv, {
    mode: 'string',
    host: 'string',
    port: 'number',
    username: 'string',
    password: 'string',
    'signing-key': 'string',
    sim: 'strings',
    'device-id': 'string',
    seed: 'number',
    'step-ms': 'number',
    'retry-base-ms': 'number',
    'retry-count': 'number',
    'ping-interval-ms': 'number',
    'allow-http-webhooks': 'boolean',
  });
  if (v.help) log(USAGE);
  const mode = v.mode ?? 'local';
  if (!MODES.has(mode)) throw new Error('--mode must be local, cloud or private');
  const retryBase = v['retry-base-ms'];
  const retryCount = v['retry-count'];
  const sim = await PhoneSim.start({
    mode: mode as Mode,
    host: v.host,
    port: v.port,
    username: v.username ?? 'sms',
    password: v.password ?? 'password',
    signingKey: v['signing-key'] ?? 'simdock1',
    slots: (v.sim ?? ['+84901234567,8984048000000001234,Viettel']).map(parseSim),
    deviceId: v['device-id'],
    seed: v.seed,
    stepMs: v['step-ms'],
    retry: {
      ...(retryBase !== undefined ? { baseMs: retryBase } : {}),
      ...(retryCount !== undefined ? { count: retryCount } : {}),
    },
    pingIntervalMs: v['ping-interval-ms'],
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

if (isMain(import.meta.url)) runCli(startFromArgs, USAGE);

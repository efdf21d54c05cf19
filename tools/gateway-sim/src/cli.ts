#!/usr/bin/env -S node --import tsx
// gateway-sim CLI: start one device (or --devices N) with the /sim/* control API enabled.
// The control API has no authentication; never expose these ports beyond a test machine.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SimFleet } from './fleet.ts';
import type { SimOptions } from './options.ts';

const USAGE = `Usage: gateway-sim [options]
  --ports N             radio ports per device (16)
  --slots N             SIM slots per port (1)
  --devices N           number of devices (1); with --port they use consecutive ports
  --host ADDR           listen address (127.0.0.1)
  --port N              listen port (0 = random)
  --username U          API account (root)
  --password P          API password (root)
  --mac MAC             device MAC (single device only)
  --seed N              seed for MAC/ICCID/IMSI/IMEI/numbers
  --no-numbers          the device does not know its SIMs' numbers (sn empty)
  --push-to URL         subscribe dev-status pushes to URL at start
  --period S            push period in seconds (60)
  --push-interval-ms N  override the push interval in ms
  --sms-to URL          recv-sms push URL at start
  --send-delay-ms N     per-recipient transmit delay (50)
  --report-max-delay-ms N  cap on sr_prd/sms_prd flush delays
  --failing-ports P,...    ports whose sends the network refuses (e.g. 16 or 16.01)
Control API (no auth, same port): GET /sim/state, GET /sim/sent, GET /sim/pushes,
  POST /sim/inject-sms {port,from,text}, POST /sim/faults {...}, POST /sim/insert-sim {port},
  POST /sim/remove-sim {port}, POST /sim/swap-sim {port}, POST /sim/outcome {outcome,numbers?},
  POST /sim/push-status, POST /sim/reboot {offlineMs?}`;

export async function startFromArgs(
  argv: string[],
  log: (line: string) => void = (l) => console.log(l),
): Promise<SimFleet> {
  const { values: v } = parseArgs({
    args: argv,
    strict: true,
    options: {
      ports: { type: 'string' },
      slots: { type: 'string' },
      devices: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      mac: { type: 'string' },
      seed: { type: 'string' },
      'no-numbers': { type: 'boolean' },
      'push-to': { type: 'string' },
      period: { type: 'string' },
      'push-interval-ms': { type: 'string' },
      'sms-to': { type: 'string' },
      'send-delay-ms': { type: 'string' },
      'report-max-delay-ms': { type: 'string' },
      'failing-ports': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (v.help) {
    log(USAGE);
    return SimFleet.start(0);
  }
  const num = (name: string, s: string | undefined): number | undefined => {
    if (s === undefined) return undefined;
    const n = Number(s);
    if (!Number.isFinite(n)) throw new Error(`--${name} must be a number`);
    return n;
  };
  const opts: SimOptions = {
    ports: num('ports', v.ports),
    slots: num('slots', v.slots),
    host: v.host,
    port: num('port', v.port),
    username: v.username,
    password: v.password,
    mac: v.mac,
    seed: num('seed', v.seed),
    withNumbers: !v['no-numbers'],
    statusUrl: v['push-to'],
    period: num('period', v.period),
    pushIntervalMs: num('push-interval-ms', v['push-interval-ms']),
    smsUrl: v['sms-to'],
    sendDelayMs: num('send-delay-ms', v['send-delay-ms']),
    reportMaxDelayMs: num('report-max-delay-ms', v['report-max-delay-ms']),
    ...(v['failing-ports'] ? { failingPorts: v['failing-ports'].split(',') } : {}),
    controlApi: true,
  };
  const fleet = await SimFleet.start(num('devices', v.devices) ?? 1, opts);
  for (const d of fleet.devices) {
    log(
      JSON.stringify({
        url: d.url,
        mac: d.mac,
        ports: d.ports,
        slots: d.slotsPerPort,
        username: opts.username ?? 'root',
      }),
    );
  }
  return fleet;
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
    (fleet) => {
      const shutdown = () => void fleet.stop().then(() => process.exit(0));
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

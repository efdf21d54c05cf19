#!/usr/bin/env -S node --import tsx
// gateway-sim CLI: start one device (or --devices N) with the /sim/* control API enabled.
// The control API has no authentication; never expose these ports beyond a test machine.
import { isMain, parseOptions, runCli } from '@simdock/sim-kit';
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
  --carriers ID,...     SIM carriers round-robin over ports (us-tmobile; also de-vodafone,
                        de-telekom, gb-ee, vn-viettel)
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
  const v = parseOptions(argv, {
    ports: 'number',
    slots: 'number',
    devices: 'number',
    host: 'string',
    port: 'number',
    username: 'string',
    password: 'string',
    mac: 'string',
    seed: 'number',
    'no-numbers': 'boolean',
    carriers: 'string',
    'push-to': 'string',
    period: 'number',
    'push-interval-ms': 'number',
    'sms-to': 'string',
    'send-delay-ms': 'number',
    'report-max-delay-ms': 'number',
    'failing-ports': 'string',
  });
  if (v.help) {
    log(USAGE);
    return SimFleet.start(0);
  }
  const opts: SimOptions = {
    ports: v.ports,
    slots: v.slots,
    host: v.host,
    port: v.port,
    username: v.username,
    password: v.password,
    mac: v.mac,
    seed: v.seed,
    withNumbers: !v['no-numbers'],
    ...(v.carriers ? { carriers: v.carriers.split(',') } : {}),
    statusUrl: v['push-to'],
    period: v.period,
    pushIntervalMs: v['push-interval-ms'],
    smsUrl: v['sms-to'],
    sendDelayMs: v['send-delay-ms'],
    reportMaxDelayMs: v['report-max-delay-ms'],
    ...(v['failing-ports'] ? { failingPorts: v['failing-ports'].split(',') } : {}),
    controlApi: true,
  };
  const fleet = await SimFleet.start(v.devices ?? 1, opts);
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

if (isMain(import.meta.url)) runCli(startFromArgs, USAGE);

#!/usr/bin/env -S node --import tsx
// goip-sim CLI: one box whose lines register with a UDP server, its web pages and the /sim/*
// control API on one HTTP port. The control API has no authentication: keep the port local.
import { isMain, parseOptions, runCli } from '@simdock/sim-kit';
import { GoipSim } from './device.ts';
import type { GoipSimOptions, SimSpec } from './options.ts';

const USAGE = `Usage: goip-sim --server HOST:PORT [options]
  --server HOST:PORT     the UDP server the lines register with (required unless --no-udp)
  --no-udp               the lines never register over UDP: only the web pages work
  --lines N              lines on the box (4)
  --id-prefix P          line IDs P1, P2, … (goip)
  --ids A,B,…            line IDs, one per line
  --password P           every line's password (1234)
  --passwords A,B,…      one password per line
  --keepalive-ms N       keepalive period (30000)
  --host ADDR            web pages' listen address (127.0.0.1)
  --http-port N          web pages' port (0 = a free one)
  --http-user U          web pages' Basic-auth account (admin)
  --http-password P      (admin)
  --seed N               seed for numbers, IMSIs, ICCIDs, IMEIs and send times
  --carriers ID,…        SIM carriers round-robin over lines (us-tmobile; also de-vodafone,
                         de-telekom, gb-ee, vn-viettel)
  --send-ms N|MIN,MAX    time one SMS takes (2000,5000)
  --deliver-ms N         OK → DELIVER delay (1000); --no-deliver sends none
  --no-deliver
  --report-retry-ms N    RECEIVE/DELIVER/RECORD re-sent after N ms unanswered (3000)
  --failing-numbers N:S,…  numbers the network refuses, with their errorstatus
  --empty-lines L,…      lines without a SIM
  --no-ntp               report ids start at 1 at every power-up
Control API (no auth, web port): GET /sim/state, GET /sim/sent, GET /sim/reports,
  POST /sim/receive-sms {line,from,text}, POST /sim/call {line,from}, POST /sim/silence {line?,on?},
  POST /sim/logout {line,on?}, POST /sim/failing-number {number,status}, POST /sim/ignore-acks {count},
  POST /sim/reboot`;

const list = (v: string | undefined) => (v === undefined ? undefined : v.split(',').filter((s) => s !== ''));

function hostPort(v: string): { host: string; port: number } {
  const m = /^(.+):(\d+)$/.exec(v);
  if (!m) throw new Error('--server must be HOST:PORT');
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port: Number(m[2]) };
}

function sendMs(v: string | undefined): GoipSimOptions['sendMs'] {
  if (v === undefined) return undefined;
  const [a, b] = v.split(',').map(Number);
  if (a === undefined || !Number.isFinite(a) || (b !== undefined && !Number.isFinite(b))) {
    throw new Error('--send-ms must be N or MIN,MAX');
  }
  return b === undefined ? a : [a, b];
}

function failing(v: string | undefined): Record<string, number> | undefined {
  const items = list(v);
  if (!items) return undefined;
  return Object.fromEntries(
    items.map((item) => {
      const [number, status] = item.split(':');
      if (!number || !/^\d+$/.test(status ?? ''))
        throw new Error('--failing-numbers must be NUMBER:STATUS,…');
      return [number, Number(status)];
    }),
  );
}

export async function startFromArgs(
  argv: string[],
  log: (line: string) => void = (l) => console.log(l),
): Promise<GoipSim | null> {
  const v = parseOptions(
    argv,
    {
      server: 'string',
      lines: 'number',
      'id-prefix': 'string',
      ids: 'string',
      password: 'string',
      passwords: 'string',
      'keepalive-ms': 'number',
      host: 'string',
      'http-port': 'number',
      'http-user': 'string',
      'http-password': 'string',
      seed: 'number',
      carriers: 'string',
      'send-ms': 'string',
      'deliver-ms': 'number',
      'no-deliver': 'boolean',
      'report-retry-ms': 'number',
      'failing-numbers': 'string',
      'empty-lines': 'string',
      'no-ntp': 'boolean',
      'no-udp': 'boolean',
    },
    { nonNegative: true },
  );
  if (v.help) {
    log(USAGE);
    return null;
  }
  const udp = !v['no-udp'];
  if (udp && !v.server) throw new Error('--server is required (or --no-udp)');
  const lines = v.lines ?? 4;
  const empty = new Set((list(v['empty-lines']) ?? []).map(Number));
  const sims: Partial<SimSpec>[] = Array.from({ length: lines }, (_, i) =>
    empty.has(i + 1) ? { inserted: false } : {},
  );
  const sim = await GoipSim.start({
    ...(v.server ? { server: hostPort(v.server) } : {}),
    udp,
    lines,
    idPrefix: v['id-prefix'],
    ids: list(v.ids),
    password: v.password,
    passwords: list(v.passwords),
    keepaliveMs: v['keepalive-ms'],
    host: v.host,
    httpPort: v['http-port'],
    httpUser: v['http-user'],
    httpPassword: v['http-password'],
    seed: v.seed,
    carriers: list(v.carriers),
    sendMs: sendMs(v['send-ms']),
    deliverMs: v['no-deliver'] ? null : v['deliver-ms'],
    reportRetryMs: v['report-retry-ms'],
    failingNumbers: failing(v['failing-numbers']),
    sims,
    noNtp: v['no-ntp'],
    controlApi: true,
  });
  log(
    JSON.stringify({
      url: sim.url,
      lines: sim
        .lines()
        .map((l) => ({ line: l.line, id: l.id, sourcePort: l.sourcePort, number: l.sim.number })),
    }),
  );
  return sim;
}

if (isMain(import.meta.url)) runCli(startFromArgs, USAGE);

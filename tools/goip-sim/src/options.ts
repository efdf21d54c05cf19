// GoipSim's options, the per-line SIM spec and the defaults.
import { carrierProfile, DEFAULT_CARRIER, seededRandom } from '@simdock/sim-kit';
import { defaultUssd, simIdentity } from './identity.ts';

/** One line's SIM as the box reports it; every field has a seeded default. */
export interface SimSpec {
  /** False: the slot is empty (no number, IMSI or ICCID; `gsm_status:LOGOUT`). */
  inserted: boolean;
  /** False: the SIM is in but not logged in to the network (`gsm_status:LOGOUT`). */
  loggedIn: boolean;
  /** Own number as the box knows it (may be ''). */
  number: string;
  imsi: string;
  iccid: string;
  imei: string;
  /** Carrier name (`pro:`). */
  carrier: string;
  /** AT+CSQ, 0–31 (99 = unknown). */
  signal: number;
  /** USSD code → reply text. */
  ussd: Record<string, string>;
}

export interface GoipSimOptions {
  /** The UDP server every line registers with (not needed when `udp` is false). */
  server?: { host: string; port: number };
  /**
   * False: the lines never register over UDP (a box whose SMS server cannot be reached); only its
   * web pages work: SMS land in each line's inbox page, send.html sends. Default true.
   */
  udp?: boolean;
  /** Lines (radio modules) on the box, default 4. */
  lines?: number;
  /** Each line's ID on the box's SMS page; default `${idPrefix}${n}` (n from 1). */
  ids?: string[];
  /** Default 'goip'. */
  idPrefix?: string;
  /** One password for every line (default '1234'), or `passwords[i]` per line. */
  password?: string;
  passwords?: string[];
  /** Keepalive period, default 30 000 ms. */
  keepaliveMs?: number;
  /**
   * Carrier profile ids of sim-kit (us-tmobile, de-vodafone, de-telekom, gb-ee, vn-viettel), assigned
   * round-robin over lines: line N's SIM is of carriers[(N - 1) % length] (its number, IMSI, ICCID
   * and `pro:`). Default ['us-tmobile']; `sims` still override single fields.
   */
  carriers?: string[];
  /** Per-line SIM overrides (index 0 = line 1). */
  sims?: Partial<SimSpec>[];
  /** Seed for the SIM identities and send timings; default random. */
  seed?: number;
  /** The box's web pages: listen address (127.0.0.1), port (0 = a free one), Basic-auth account. */
  host?: string;
  httpPort?: number;
  httpUser?: string;
  httpPassword?: string;
  /** Serve the unauthenticated `/sim/*` control API on the web port (the CLI turns this on). */
  controlApi?: boolean;
  /** Time one SMS takes to go out: ms, or [min, max] drawn per SMS. Default [2000, 5000]. */
  sendMs?: number | [number, number];
  /** While an SMS is going out, another `WAIT` every this many ms (0 = only the first). Default 2000. */
  waitRepeatMs?: number;
  /** Answer `WAIT` at once to each new `SEND` (default true); false answers only the final result. */
  waitFirst?: boolean;
  /** Delay from `OK` to the `DELIVER` report; null = no delivery reports. Default 1000. */
  deliverMs?: number | null;
  /** `state:` of the delivery reports, default 0. */
  deliverState?: number;
  /** A report (RECEIVE, DELIVER, RECORD) unanswered is sent again after this long (3000)… */
  reportRetryMs?: number;
  /** …at most this many times (3), so it goes out at most reportResends + 1 times. */
  reportResends?: number;
  /** Bulk-send sessions at once per box (5) and how long one may stay idle (90 000 ms). */
  maxSessions?: number;
  sessionIdleMs?: number;
  /** Time a USSD reply takes, default 1500 ms. */
  ussdMs?: number;
  /** Numbers the network refuses: number → `errorstatus:<n>`. */
  failingNumbers?: Record<string, number>;
  /** The box has no NTP: report ids count from 1 at every power-up, so they repeat after a reboot. */
  noNtp?: boolean;
  /** The box's clock against the real one, in ms (-5 h: a box set to a time zone behind UTC). Default 0. */
  clockOffsetMs?: number;
}

export interface ResolvedOptions {
  server: { host: string; port: number };
  udp: boolean;
  keepaliveMs: number;
  host: string;
  httpPort: number;
  httpUser: string;
  httpPassword: string;
  controlApi: boolean;
  sendMs: [number, number];
  waitRepeatMs: number;
  waitFirst: boolean;
  deliverMs: number | null;
  deliverState: number;
  reportRetryMs: number;
  reportResends: number;
  maxSessions: number;
  sessionIdleMs: number;
  ussdMs: number;
  noNtp: boolean;
  clockOffsetMs: number;
  failingNumbers: Record<string, number>;
  random: () => number;
  lines: { id: string; password: string; sim: SimSpec }[];
}

export function resolveOptions(o: GoipSimOptions): ResolvedOptions {
  const udp = o.udp ?? true;
  if (udp && !o.server) throw new Error('goip-sim: server is required unless udp is false');
  const count = o.lines ?? 4;
  if (!Number.isInteger(count) || count < 1 || count > 32) throw new Error('goip-sim: lines must be 1–32');
  const seed = o.seed ?? Math.floor(Math.random() * 1e9);
  const random = seededRandom(seed);
  const carriers = (o.carriers?.length ? o.carriers : [DEFAULT_CARRIER]).map(carrierProfile);
  const sendMs = o.sendMs ?? [2000, 5000];
  const lines = Array.from({ length: count }, (_, i) => {
    const id = o.ids?.[i] ?? `${o.idPrefix ?? 'goip'}${i + 1}`;
    const password = o.passwords?.[i] ?? o.password ?? '1234';
    const over = o.sims?.[i] ?? {};
    const base = simIdentity(seed, i, random, carriers[i % carriers.length]);
    // The own-number code answers the number the SIM really has, overridden or not.
    const ussd = { ...defaultUssd(over.number ?? base.number), ...over.ussd };
    const sim: SimSpec = { ...base, ...over, ussd };
    return { id, password, sim };
  });
  return {
    server: o.server ?? { host: '127.0.0.1', port: 0 },
    udp,
    keepaliveMs: o.keepaliveMs ?? 30_000,
    host: o.host ?? '127.0.0.1',
    httpPort: o.httpPort ?? 0,
    httpUser: o.httpUser ?? 'admin',
    httpPassword: o.httpPassword ?? 'admin',
    controlApi: o.controlApi ?? false,
    sendMs: typeof sendMs === 'number' ? [sendMs, sendMs] : sendMs,
    waitRepeatMs: o.waitRepeatMs ?? 2000,
    waitFirst: o.waitFirst ?? true,
    deliverMs: o.deliverMs === undefined ? 1000 : o.deliverMs,
    deliverState: o.deliverState ?? 0,
    reportRetryMs: o.reportRetryMs ?? 3000,
    reportResends: o.reportResends ?? 3,
    maxSessions: o.maxSessions ?? 5,
    sessionIdleMs: o.sessionIdleMs ?? 90_000,
    ussdMs: o.ussdMs ?? 1500,
    noNtp: o.noNtp ?? false,
    clockOffsetMs: o.clockOffsetMs ?? 0,
    failingNumbers: { ...o.failingNumbers },
    random,
    lines,
  };
}

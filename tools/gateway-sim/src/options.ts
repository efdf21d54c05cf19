import type { SimNetwork } from './network.ts';

export interface SimOptions {
  /** Radio modules ("ports"), default 16. */
  ports?: number;
  /** SIM slots per port, default 1. */
  slots?: number;
  /** API account, default root/root. */
  username?: string;
  password?: string;
  /** Default: derived from the seed ('00-30-f1-xx-xx-xx'). */
  mac?: string;
  /** Listen address, default 127.0.0.1. */
  host?: string;
  /** Listen port, default 0 (random). */
  port?: number;
  /** Default true: the device knows each SIM's number (`sn`). */
  withNumbers?: boolean;
  /**
   * Carrier profile ids of sim-kit (us-tmobile, de-vodafone, de-telekom, gb-ee, vn-viettel), assigned
   * round-robin over ports: port N gets carriers[(N - 1) % length]. Default ['us-tmobile'].
   */
  carriers?: string[];
  /** Seed for ICCID/IMSI/IMEI/numbers/MAC; default random. Fleets use seed, seed+1, ... */
  seed?: number;
  /** Overrides `period * 1000` of the dev-status push (tests use short intervals). */
  pushIntervalMs?: number;
  /** Per-recipient transmit delay, default 50. */
  sendDelayMs?: number;

  // Extras beyond the core brief; all optional.
  /** Reported LAN IP, default 192.168.1.x. */
  ip?: string;
  /** Reported firmware version. */
  ver?: string;
  /** Time a slot stays "registering" (st 2) after switch/reset, default 100 ms. */
  registerDelayMs?: number;
  /** Delay between a successful send and its carrier DLR (dr=1), default 100 ms. */
  dlrDelayMs?: number;
  /** Offline time of `op=reboot` and of `reboot()` without an argument, default 1000 ms. */
  rebootOfflineMs?: number;
  /** Caps the sr_prd / sms_prd flush delay (seconds on the wire) so tests stay fast. Default: no cap. */
  reportMaxDelayMs?: number;
  /** Timeout of one outgoing push, default 3000 ms. */
  pushTimeoutMs?: number;
  /** Queued (unfinished) tasks the device holds before answering "16 Too Many Task", default 10000. */
  maxQueuedTasks?: number;
  /** Subscribe at start, as if `goip_get_status.html?url=&period=` had been called. */
  statusUrl?: string;
  /** Status push period in seconds for `statusUrl`, default 60. */
  period?: number;
  /** Initial SMS push URL (normally set by a send-sms request's `sms_url` or `op=set`). */
  smsUrl?: string;
  /** Serve the unauthenticated `/sim/*` control API on the same port (the CLI turns this on). */
  controlApi?: boolean;
  /** Radio network shared with other simulators so SMS between their SIMs are delivered (loop-back). */
  network?: SimNetwork;
  /**
   * Ports whose SIMs the network refuses ("3" or "3.01"): every send from them fails as `fail`
   * does (fdr "6 Timeout", carrier reason 21), whatever `setOutcome` says. The SIM stays registered.
   */
  failingPorts?: string[];
}

export interface Faults {
  /** Refuse connections (stop listening) and stop pushes. */
  offline: boolean;
  /** Delay every goip_* reply. */
  slowMs: number;
  /** Every goip_* call answers HTTP 500. */
  http500: boolean;
  /** Pushes are silently not sent. */
  dropPushes: boolean;
  /** Every push is sent twice. */
  duplicatePushes: boolean;
  /** Real firmware spells it 'max-slot'. */
  maxSlotsSpelling: 'max-slot' | 'max-slots';
  /** `st` as 3 or "3 OK". */
  stFormat: 'number' | 'text';
}

export const DEFAULT_FAULTS: Faults = {
  offline: false,
  slowMs: 0,
  http500: false,
  dropPushes: false,
  duplicatePushes: false,
  maxSlotsSpelling: 'max-slot',
  stFormat: 'number',
};

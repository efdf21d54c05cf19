import type { DeviceKind } from '@simdock/contract';
import type { AppContext } from '../../../context.ts';
import { runtimeKey } from '../../../runtime.ts';
import type { DeviceLogin, DriverTarget, GatewayDriver } from './driver.ts';
import { EjoinDriver } from './ejoin.ts';
import {
  GOIP_WEB_POLL_MS,
  GoipDriver,
  goipAnswerKeyOf,
  goipGatewayOfLogin,
  goipLoginOf,
  goipUsesWeb,
} from './goip.ts';
import { SmsGateDriver } from './smsgate.ts';

/** What the platform knows of a kind of device before it has one of them to talk to. */
export interface DeviceKindSpec {
  create: (target: DriverTarget) => GatewayDriver;
  /** What this kind can do beyond SMS: MMS (for the modules that choose a SIM), USSD (`ussd`). */
  can: { sendMms: boolean; ussd: boolean };
  /**
   * How its pushes reach the platform: requests to the gateway's secret URL, or datagrams to the
   * kind's port that name their device inside (then `loginOf` and `gatewayOfLogin` say which).
   */
  pushes: 'http' | 'datagram';
  /**
   * How sends reach the device: handed over in one request (`sendTasks`), or held by the platform
   * and run by the process that holds the kind's socket (`sendHeld`, held-sends.ts).
   */
  sends: 'direct' | 'held';
  /**
   * Which of this process's own requests a datagram answers (a send session's id), when it is an
   * answer rather than a push; undefined for a push.
   */
  answerKeyOf?: (body: Buffer) => string | undefined;
  /** Who a datagram says sent it; undefined when it names no device. */
  loginOf?: (body: Buffer) => DeviceLogin | undefined;
  /**
   * Whether a gateway of this kind in `mode` (its stored mode) has lines that report themselves
   * over datagrams: they fall silent rather than fail a scan, and their sends need the address a
   * line was last heard from. Absent: every gateway of a kind that pushes datagrams does.
   */
  linesReport?: (mode: string | null) => boolean;
  /**
   * How often the platform must read a gateway in `mode` itself, in ms: its inbox (a rental's code
   * waits for it) and its status (it pushes neither). Absent or undefined: the usual catch-up of
   * missed pushes (PULL_PERIOD_MS), the status by the device's own reports.
   */
  pollMs?: (mode: string | null) => number | undefined;
  /** Which of this kind's gateways a login belongs to (by the gateway's user name). */
  gatewayOfLogin?: (
    login: string,
    gateways: readonly { id: string; userName: string }[],
  ) => string | undefined;
}

/** Every kind of device (the gateway's `driver` column). */
const DEVICE_KINDS: Record<DeviceKind, DeviceKindSpec> = {
  ejoin: {
    create: (target) => new EjoinDriver(target),
    can: { sendMms: true, ussd: true },
    pushes: 'http',
    sends: 'direct',
  },
  // SMSGate sends SMS and data SMS only (it receives MMS).
  smsgate: {
    create: (target) => new SmsGateDriver(target),
    can: { sendMms: false, ussd: false },
    pushes: 'http',
    sends: 'direct',
  },
  goip: {
    create: (target) => new GoipDriver(target),
    can: { sendMms: false, ussd: true },
    pushes: 'datagram',
    sends: 'held',
    answerKeyOf: goipAnswerKeyOf,
    loginOf: goipLoginOf,
    gatewayOfLogin: goipGatewayOfLogin,
    // A box the platform reads through its web pages: no line reports itself, its inbox is polled.
    linesReport: (mode) => !goipUsesWeb(mode),
    pollMs: (mode) => (goipUsesWeb(mode) ? GOIP_WEB_POLL_MS : undefined),
  },
};

/** Whether a gateway's lines report themselves over datagrams (DeviceKindSpec.linesReport). */
export function linesReportThemselves(spec: DeviceKindSpec | undefined, mode: string | null): boolean {
  if (spec?.pushes !== 'datagram') return false;
  return spec.linesReport ? spec.linesReport(mode) : true;
}

/** The kinds whose lines report themselves over datagrams (they fall silent rather than fail a scan). */
export function datagramKinds(): DeviceKind[] {
  return (Object.keys(DEVICE_KINDS) as DeviceKind[]).filter((k) => DEVICE_KINDS[k].pushes === 'datagram');
}

export function isDeviceKind(kind: string): kind is DeviceKind {
  return Object.hasOwn(DEVICE_KINDS, kind);
}

/** What a kind of device can do beyond SMS (false for a kind this build does not know). */
export function deviceCan(kind: string): DeviceKindSpec['can'] {
  return isDeviceKind(kind) ? DEVICE_KINDS[kind].can : { sendMms: false, ussd: false };
}

const EXTRA_KINDS = runtimeKey<Map<string, DeviceKindSpec>>('gateways.extraDeviceKinds');

/**
 * A kind of device known to one server only: how a test plugs in a device of its own (a stub that
 * speaks datagrams) and drives it through the same services as the real kinds.
 */
export function addDeviceKind(ctx: AppContext, name: string, spec: DeviceKindSpec): void {
  ctx.runtime.get(EXTRA_KINDS, () => new Map()).set(name, spec);
}

/** The kind named by a gateway's `driver` column, or undefined. */
export function deviceKind(ctx: AppContext, name: string): DeviceKindSpec | undefined {
  return isDeviceKind(name) ? DEVICE_KINDS[name] : ctx.runtime.get(EXTRA_KINDS, () => new Map()).get(name);
}

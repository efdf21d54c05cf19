// What a simulated phone is started with, and the defaults it fills in.
import { carrierProfile, iccidFor, numberFor, seededRandom } from '@simdock/sim-kit';
import type { Mode } from './model.ts';
import type { RetryOptions } from './webhooks.ts';

export interface SlotConfig {
  /** null: the phone cannot read it (no READ_PHONE_STATE, or the carrier does not store it). */
  phoneNumber: string | null;
  iccid: string | null;
  carrierName: string;
}

/**
 * A SIM of a sim-kit carrier profile (us-tmobile, de-vodafone, de-telekom, gb-ee, vn-viettel): its
 * number, ICCID and carrier name come from the profile (seeded by `seed`); fields given here win.
 */
export interface CarrierSlot extends Partial<SlotConfig> {
  carrier: string;
}

/** Another phone of the same Cloud/Private account: listed, but it never comes online. */
export interface OtherDevice {
  id: string;
  name: string;
  /** Set: the phone was removed from the account (the list still shows it, with `deletedAt`). */
  deletedAt?: string;
}

export interface PhoneSimOptions {
  host?: string;
  port?: number;
  mode: Mode;
  username: string;
  password: string;
  /** Physical slots in order (slotIndex 0, 1, …); null is an empty slot. */
  slots: (SlotConfig | CarrierSlot | null)[];
  signingKey: string;
  seed?: number;
  deviceId?: string;
  /** `<manufacturer>/<product>`. */
  name?: string;
  version?: string;
  releaseId?: number;
  /** The phone's UTC offset for payload times (default +07:00). */
  tzOffsetMinutes?: number;
  /** Delay between state steps Pending → Processed → Sent → Delivered (default 5 ms). */
  stepMs?: number;
  retry?: Partial<RetryOptions>;
  /** Accept plain http:// webhook URLs anywhere (an "insecure" app build). Local always accepts http://127.0.0.1. */
  allowHttpWebhooks?: boolean;
  /** Send system:ping at this interval; off when absent. */
  pingIntervalMs?: number;
  /** Serve the unauthenticated /sim/* control API on the same port. */
  controlApi?: boolean;
  /** Cloud/Private: more phones in the account besides this one. */
  otherDevices?: OtherDevice[];
  /** false: an older app that reports no SIMs (the device list has no `simCards`). Default true. */
  simReporting?: boolean;
  /** Cloud/Private queue limit: a send while this many messages are Pending answers 503. */
  maxPending?: number;
}

/** The options with every default filled in (the ones a phone may lack stay out). */
export type ResolvedOptions = Required<
  Omit<
    PhoneSimOptions,
    | 'seed'
    | 'deviceId'
    | 'retry'
    | 'pingIntervalMs'
    | 'port'
    | 'host'
    | 'otherDevices'
    | 'maxPending'
    | 'slots'
  >
> & { slots: (SlotConfig | null)[] };

/** Carrier slots drawn from the profile; a stream of their own, so a seed's device and message ids stay as they were. */
function resolveSlots(slots: PhoneSimOptions['slots'], seed: number | undefined): (SlotConfig | null)[] {
  const random = seed === undefined ? Math.random : seededRandom(seed ^ 0x5eed51a5);
  return slots.map((s) => {
    if (!s || !('carrier' in s)) return s;
    const { carrier, ...given } = s;
    const p = carrierProfile(carrier);
    const drawn: SlotConfig = {
      phoneNumber: `+${numberFor(p, random)}`,
      iccid: iccidFor(p, random),
      carrierName: p.name,
    };
    return { ...drawn, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
  });
}

export function resolveOptions(opts: PhoneSimOptions): ResolvedOptions {
  return {
    mode: opts.mode,
    username: opts.username,
    password: opts.password,
    slots: resolveSlots(opts.slots, opts.seed),
    signingKey: opts.signingKey,
    name: opts.name ?? 'samsung/a52qnsxx',
    version: opts.version ?? '1.40.0',
    releaseId: opts.releaseId ?? 140,
    tzOffsetMinutes: opts.tzOffsetMinutes ?? 420,
    stepMs: opts.stepMs ?? 5,
    allowHttpWebhooks: opts.allowHttpWebhooks ?? false,
    controlApi: opts.controlApi ?? false,
    simReporting: opts.simReporting ?? true,
  };
}

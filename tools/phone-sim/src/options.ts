// What a simulated phone is started with, and the defaults it fills in.
import type { Mode } from './model.ts';
import type { RetryOptions } from './webhooks.ts';

export interface SlotConfig {
  /** null: the phone cannot read it (no READ_PHONE_STATE, or the carrier does not store it). */
  phoneNumber: string | null;
  iccid: string | null;
  carrierName: string;
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
  slots: (SlotConfig | null)[];
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
    'seed' | 'deviceId' | 'retry' | 'pingIntervalMs' | 'port' | 'host' | 'otherDevices' | 'maxPending'
  >
>;

export function resolveOptions(opts: PhoneSimOptions): ResolvedOptions {
  return {
    mode: opts.mode,
    username: opts.username,
    password: opts.password,
    slots: opts.slots,
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

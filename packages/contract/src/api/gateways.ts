import { z } from 'zod';
import { boundedText, TEXT_LIMITS as L } from '../limits.ts';
import { SimOrigin } from './places.ts';

export const OnlineStatus = z.enum(['Online', 'Offline']);

/**
 * The device families the platform drives: `ejoin` multi-port SIM boxes (Ejoin and their OEM
 * twins, docs/devices-ejoin.md), `smsgate` Android phones running SMSGate (docs/devices-smsgate.md)
 * and `goip` multi-port boxes whose lines connect to the platform's UDP port (docs/devices-goip.md).
 */
export const DEVICE_KINDS = ['ejoin', 'smsgate', 'goip'] as const;
export const DeviceKind = z.enum(DEVICE_KINDS);
export type DeviceKind = z.infer<typeof DeviceKind>;

/**
 * How SimDock reaches an SMSGate phone: `local` (the phone's own server, http://phone:8080),
 * `cloud` (api.sms-gate.app) or `private` (a self-hosted SMSGate server).
 */
export const PHONE_MODES = ['local', 'cloud', 'private'] as const;
export const PhoneMode = z.enum(PHONE_MODES);
export type PhoneMode = z.infer<typeof PhoneMode>;

/**
 * How SimDock reaches a GoIP box: `udp` (its lines connect to SimDock's UDP port; the default) or
 * `web` (SimDock reads and sends through the box's own web pages, for a box that cannot reach
 * SimDock: NAT, a firewall).
 */
export const GOIP_MODES = ['udp', 'web'] as const;
export const GoipMode = z.enum(GOIP_MODES);
export type GoipMode = z.infer<typeof GoipMode>;

/** A gateway's mode: a phone's `local|cloud|private`, a GoIP box's `udp|web`; none for an Ejoin box. */
export const GatewayMode = z.enum([...PHONE_MODES, ...GOIP_MODES]);
export type GatewayMode = z.infer<typeof GatewayMode>;

/** The API base URL of each phone mode when the admin leaves it blank (Local has no default). */
export const PHONE_MODE_DEFAULT_URL: Record<PhoneMode, string | null> = {
  local: null,
  cloud: 'https://api.sms-gate.app/3rdparty/v1',
  private: null,
};

export const Gateway = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  /** The box's MAC (Ejoin); empty for a phone and a GoIP box. */
  mac: z.string(),
  userName: z.string(),
  isEnable: z.boolean(),
  totalSIM: z.number().int(),
  lastUpdate: z.string().nullable(),
  onlineStatus: OnlineStatus,
  /** Where the device must push; carries the gateway id and its secret (pushes have no credentials). */
  pushUrls: z.object({ status: z.string(), sms: z.string(), report: z.string(), base: z.string() }),
  /** Which device family (driver) this gateway is. */
  kind: DeviceKind,
  /** A phone's mode (`local|cloud|private`) or a GoIP box's (`udp|web`); null for an Ejoin box. */
  mode: GatewayMode.nullable(),
  /** The device's own id: the MAC of a box, the SMSGate id of a phone (null until its first Scan). */
  deviceId: z.string().nullable(),
  /** The device's model as it reports it, when known. */
  model: z.string().nullable(),
  /** Whether a signing key is stored (phones sign their webhooks with it); the key is never returned. */
  hasSigningKey: z.boolean(),
  /** A GoIP box's web account (its own web pages' login); null when none is stored. */
  webUser: z.string().nullable(),
  /** Whether the web account's password is stored; the password is never returned. */
  hasWebPassword: z.boolean(),
  /**
   * Where a device that connects to the platform (a GoIP box's lines) must be pointed: the host
   * and UDP port to enter on the device; null for the kinds the platform connects to.
   */
  deviceServer: z.object({ host: z.string(), port: z.number().int() }).nullable(),
  /** Whether its SIMs can be sent a USSD code (a balance check) from Gateway Manager. */
  canUssd: z.boolean(),
});
export type Gateway = z.infer<typeof Gateway>;

export const GatewayInput = z.object({
  id: boundedText(L.id, 'Id').optional(),
  name: boundedText(L.gatewayName, 'Name'),
  /**
   * A phone in Cloud mode may leave it blank (the public server's URL is used); a GoIP box too (its
   * web interface, when given, is the fallback for reading and sending).
   */
  url: boundedText(L.gatewayUrl, 'URL'),
  /** Required for an Ejoin box; ignored for a phone and a GoIP box. */
  mac: boundedText(L.mac, 'MAC').optional().default(''),
  userName: boundedText(L.gatewayUserName, 'User name'),
  /** Write only; blank (or absent) on edit keeps the stored one. */
  password: boundedText(L.gatewayPassword, 'Password').optional(),
  isEnable: z.boolean().default(true),
  /** Absent: a box (the spec's gateway). */
  kind: DeviceKind.default('ejoin'),
  /**
   * Required for a phone (`local|cloud|private`); a GoIP box's `udp|web` (absent: `udp`). A phone's
   * mode on a GoIP box, or a GoIP mode on a phone, is refused.
   */
  mode: GatewayMode.optional(),
  /** A phone's SMSGate device id; blank: the account's only phone, learned at the first Scan. */
  deviceId: boundedText(L.deviceId, 'Device ID').optional(),
  /**
   * Write only: the phone's webhook signing key (the app's Settings → Webhooks → Signing Key).
   * Blank on edit keeps the stored one; blank on a new Local phone lets SimDock set one.
   */
  signingKey: boundedText(L.signingKey, 'Signing key').optional(),
  /** A GoIP box's web login (required in `web` mode; with it a Scan reads the box's status page). */
  webUser: boundedText(L.gatewayUserName, 'Web login').optional(),
  /** Write only: the web login's password, sealed at rest. Blank on edit keeps the stored one. */
  webPassword: boundedText(L.gatewayPassword, 'Web password').optional(),
});
export type GatewayInput = z.input<typeof GatewayInput>;

export const UpdateGatewayBody = z.object({ gateway: GatewayInput });
export const GatewayIdBody = z.object({ id: boundedText(L.id, 'Id') });

export const GatewaySettings = z.object({
  gateways: z.array(Gateway),
  serverTime: z.string(),
  /** The message prices (USD per SMS segment, per MMS; 0 = free), as the admin set them in Settings. */
  smsPricePerSegment: z.number().min(0),
  mmsPrice: z.number().min(0),
});
export type GatewaySettings = z.infer<typeof GatewaySettings>;

/** Which job a SIM may do: `rental` SIMs never send bulk SMS, `messaging` SIMs are never rented. */
export const SIM_ROLES = ['rental', 'messaging', 'both'] as const;
export const SimRole = z.enum(SIM_ROLES);
export type SimRole = z.infer<typeof SimRole>;

/** Why a SIM is locked: failed sends in a row, the device reporting it blocked, or an admin. */
export const SimLockKind = z.enum(['auto', 'device', 'manual']);
export type SimLockKind = z.infer<typeof SimLockKind>;

/** A locked SIM is neither rented nor used for sending. `until` null: until unlocked (or the device recovers). */
export const SimLock = z.object({
  locked: z.boolean(),
  kind: SimLockKind.nullable(),
  reason: z.string().nullable(),
  /** When it was locked (ISO). */
  since: z.string().nullable(),
  /** When it unlocks by itself (ISO); null = not by time. */
  until: z.string().nullable(),
  /** The admin who locked it (manual locks). */
  by: z.string().nullable(),
});
export type SimLock = z.infer<typeof SimLock>;

/**
 * The platform's SIM states; each driver maps its device's own codes onto them (docs/devices-ejoin.md
 * for a box's table). `empty`: no SIM in the slot. `starting`: a card is there but not on the
 * network yet (idle, detected, registering). `ready`: registered, can be rented and send. `busy`:
 * registered and busy (a call, a data session), still usable. `blocked`: the device reports the
 * SIM unable to work (no balance, refused by the network, locked): the platform locks it.
 * `unknown`: the device reports something else (or nothing the driver knows): neither usable nor
 * locked. The device's own words are kept beside the state for people.
 */
export const SIM_STATES = ['empty', 'starting', 'ready', 'busy', 'blocked', 'unknown'] as const;
export const SimState = z.enum(SIM_STATES);
export type SimState = z.infer<typeof SimState>;

/** A platform state's name, shown when the device gave no words of its own. */
export const SIM_STATE_TEXT: Record<SimState, string> = {
  empty: 'No SIM',
  starting: 'Starting',
  ready: 'Registered',
  busy: 'Busy',
  blocked: 'Blocked',
  unknown: 'Unknown',
};

/** What people read for a SIM's state: the device's words when it gave some, else the platform's. */
export function simStateText(state: SimState, deviceState: string | null): string {
  return deviceState ?? SIM_STATE_TEXT[state];
}

/** The states in which a SIM can be rented and send (unless locked). */
export const USABLE_SIM_STATES: readonly SimState[] = ['ready', 'busy'];
export function isUsableSimState(state: SimState): boolean {
  return USABLE_SIM_STATES.includes(state);
}

/** The device reports the SIM unable to work: the platform locks it until it is usable again. */
export function isBlockedSimState(state: SimState): boolean {
  return state === 'blocked';
}

/** Per-SIM figures; "today" and "this month" are UTC. */
export const SimHealth = z.object({
  sentToday: z.number().int(),
  sentThisMonth: z.number().int(),
  /** Sends that failed on this SIM (any reason), all time. */
  failed: z.number().int(),
  /** Failures the SIM is to blame for since its last success; SimLockAfterFailures of them lock it. */
  consecutiveFailures: z.number().int(),
  /** SMS received on this port, all time. */
  received: z.number().int(),
  rentalsToday: z.number().int(),
  lastSuccess: z.string().nullable(),
  /** At its day or month cap: skipped for sending until the period turns (still rentable). */
  atCap: z.enum(['day', 'month']).nullable(),
});
export type SimHealth = z.infer<typeof SimHealth>;

export const Sim = z.object({
  port: z.string(),
  iccid: z.string().nullable(),
  imsi: z.string().nullable(),
  number: z.string().nullable(),
  numberSource: z.enum(['device', 'manual']).nullable(),
  operator: z.string().nullable(),
  signal: z.number().nullable(),
  /** The platform's state (the device's code is mapped by its driver). */
  state: SimState,
  /** The device's own words for the state when it gave some, else the platform state's name. */
  stateText: z.string(),
  /** A usable state and not locked: a locked SIM is never usable. */
  usable: z.boolean(),
  role: SimRole,
  lock: SimLock,
  health: SimHealth,
  /** The last USSD code sent from this SIM by an admin and the network's reply (a balance). */
  ussd: z.object({ code: z.string(), reply: z.string(), at: z.string() }).nullable(),
  /** The SIM's country and operator as rentals count them, and what told them. */
  origin: SimOrigin,
});
export type Sim = z.infer<typeof Sim>;

/** gatewayReport: the gateway with its SIM inventory as the last scan or push left it. */
export const GatewayReport = z.object({ gateway: Gateway, sims: z.array(Sim) });
export type GatewayReport = z.infer<typeof GatewayReport>;

export const SetSimNumberBody = z.object({
  gatewayId: boundedText(L.id, 'Gateway id'),
  port: boundedText(L.port, 'Port'),
  number: boundedText(L.phoneNumber, 'Number'),
});
/** The number is kept by the platform (by ICCID) even when the device could not store it. */
export const SetSimNumberResult = z.object({
  code: z.literal(1),
  msg: z.string(),
  sim: Sim,
  deviceUpdated: z.boolean(),
});
export type SetSimNumberResult = z.infer<typeof SetSimNumberResult>;

/** Longest reason an admin gives for locking or unlocking a SIM. */
export const SIM_LOCK_REASON_MAX = 200;
/** Longest manual lock with an end: 30 days. */
export const SIM_LOCK_MAX_MINUTES = 43_200;

const SimRef = {
  gatewayId: boundedText(L.id, 'Gateway id'),
  port: boundedText(L.port, 'Port'),
};
const lockReason = boundedText(SIM_LOCK_REASON_MAX, 'Reason').pipe(
  z.string().refine((s) => s.trim() !== '', 'Enter a reason.'),
);

/** POST /api/Admin/lockSim: locks a SIM by hand; without `minutes` it stays locked until unlocked. */
export const LockSimBody = z.object({
  ...SimRef,
  reason: lockReason,
  minutes: z
    .number({ error: `Minutes must be a whole number from 1 to ${SIM_LOCK_MAX_MINUTES}.` })
    .int(`Minutes must be a whole number from 1 to ${SIM_LOCK_MAX_MINUTES}.`)
    .min(1, `Minutes must be a whole number from 1 to ${SIM_LOCK_MAX_MINUTES}.`)
    .max(SIM_LOCK_MAX_MINUTES, `Minutes must be a whole number from 1 to ${SIM_LOCK_MAX_MINUTES}.`)
    .optional(),
});
export type LockSimBody = z.input<typeof LockSimBody>;

/** POST /api/Admin/unlockSim: ends any lock (automatic, device or manual); the failure count restarts. */
export const UnlockSimBody = z.object({ ...SimRef, reason: lockReason });
export type UnlockSimBody = z.input<typeof UnlockSimBody>;

/** POST /api/Admin/setSimRole. */
export const SetSimRoleBody = z.object({ ...SimRef, role: SimRole });
export type SetSimRoleBody = z.input<typeof SetSimRoleBody>;

/** A USSD code as networks take them: `*`, `#` and digits, starting with `*` or `#` (`*100#`). */
export const USSD_CODE_PATTERN = /^[*#][*#0-9]{1,31}$/;
export const USSD_CODE_MESSAGE = 'Enter a USSD code such as *100#: *, # and digits, up to 32.';

/** POST /api/Admin/simUssd: sends a USSD code from the SIM (a balance check) and answers the reply. */
export const SimUssdBody = z.object({
  ...SimRef,
  // Bounded before the pattern reads it, like every text from outside.
  code: boundedText(64, 'Code', USSD_CODE_MESSAGE).pipe(
    z.string().trim().regex(USSD_CODE_PATTERN, USSD_CODE_MESSAGE),
  ),
});
export type SimUssdBody = z.input<typeof SimUssdBody>;

export const SimActionResult = z.object({ code: z.literal(1), msg: z.string(), sim: Sim });
export type SimActionResult = z.infer<typeof SimActionResult>;

export const DeviceStatsBody = z.object({ mac: boundedText(L.mac, 'MAC') });
export const ServiceStat = z.object({
  name: z.string(),
  using: z.number().int(),
  used: z.number().int(),
  success: z.number().int(),
});
export const DeviceStats = z.object({
  mac: z.string(),
  /** The gateway's name. */
  name: z.string(),
  totalSIM: z.number().int(),
  serviceStatss: z.array(ServiceStat),
});
export type DeviceStats = z.infer<typeof DeviceStats>;

export const SimulateSmsBody = z.object({
  gatewayId: boundedText(L.id, 'Gateway id'),
  port: boundedText(L.port, 'Port'),
  from: boundedText(L.smsSender, 'Sender').pipe(z.string().min(1, 'Enter the sender number.')),
  text: boundedText(L.smsText, 'Text').pipe(z.string().min(1, 'Enter the text of the SMS.')),
});

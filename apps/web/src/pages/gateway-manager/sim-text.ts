import type { DeviceKind, OriginSource, Sim, SimRole } from '@simdock/contract';
import type { MessageKey, TFunction } from '../../i18n/index.tsx';

/**
 * The server's English words for a SIM's state (a device's own, or the platform state's name when
 * the device gave none, SIM_STATE_TEXT in the contract) and their place in the catalogue.
 */
const STATE_TEXT_KEYS: ReadonlyMap<string, MessageKey> = new Map<string, MessageKey>([
  ['No SIM', 'gateways.simState.noSim'],
  ['Idle SIM', 'gateways.simState.idleSim'],
  ['Registering', 'gateways.simState.registering'],
  ['Registered', 'gateways.simState.registered'],
  ['Call connected', 'gateways.simState.callConnected'],
  ['No balance / alarm', 'gateways.simState.noBalance'],
  ['Registration failed', 'gateways.simState.registrationFailed'],
  ['Locked by device', 'gateways.simState.lockedByDevice'],
  ['Locked by operator', 'gateways.simState.lockedByOperator'],
  ['SIM error', 'gateways.simState.simError'],
  ['Card detected', 'gateways.simState.cardDetected'],
  ['User locked', 'gateways.simState.userLocked'],
  ['Inter-calling', 'gateways.simState.interCalling'],
  ['Inter-calling hold', 'gateways.simState.interCallingHold'],
  ['Accessing mobile network', 'gateways.simState.accessingNetwork'],
  ['Module timeout', 'gateways.simState.moduleTimeout'],
  ['Starting', 'gateways.simState.starting'],
  ['Busy', 'gateways.simState.busy'],
  ['Blocked', 'gateways.simState.blocked'],
  ['Unknown', 'gateways.simState.unknown'],
]);

/** A SIM state's words ("Registered") in the user's language; words the catalogue lacks, as the server said. */
export function simStateName(t: TFunction, serverText: string): string {
  const key = STATE_TEXT_KEYS.get(serverText);
  return key ? t(key) : serverText;
}

/**
 * Why a SIM is locked, in the user's language. The server writes its own reasons in English (a device
 * lock "Device reports: Registration failed", an automatic one "5 failed sends in a row", with
 * " (recovered; cooling down)" once the device is fine again); an administrator's own words stay as
 * typed.
 */
export function lockReasonText(t: TFunction, reason: string): string {
  const recovered = / \(recovered; cooling down\)$/.exec(reason);
  const base = recovered ? reason.slice(0, recovered.index) : reason;
  const tail = recovered ? ` (${t('gateways.lockReasonRecovered')})` : '';
  const failures = /^(\d+) failed sends in a row$/.exec(base);
  if (failures) return t('gateways.lockReasonFailures', { count: Number(failures[1]) }) + tail;
  const device = /^Device reports: (.+)$/.exec(base);
  if (device && STATE_TEXT_KEYS.has(device[1] as string))
    return t('gateways.lockReasonDevice', { state: simStateName(t, device[1] as string) }) + tail;
  return reason;
}

/** What the SIM dialogs and controls say about one SIM. */
export type SimAction = 'setNumber' | 'simulate' | 'lock' | 'unlock' | 'role' | 'ussd' | 'origin';

/**
 * Each action's text in each kind's words: an Ejoin box's port ("port 1.01"), a phone's slot
 * ("SIM 1"), a GoIP box's line ("line 1").
 */
const SIM_ACTION_TEXT: Record<SimAction, Record<DeviceKind, MessageKey>> = {
  setNumber: {
    ejoin: 'gateways.setNumberFor',
    smsgate: 'gateways.setNumberForSim',
    goip: 'gateways.setNumberForLine',
  },
  simulate: {
    ejoin: 'gateways.simulateFor',
    smsgate: 'gateways.simulateForSim',
    goip: 'gateways.simulateForLine',
  },
  lock: { ejoin: 'gateways.lockFor', smsgate: 'gateways.lockForSim', goip: 'gateways.lockForLine' },
  unlock: { ejoin: 'gateways.unlockFor', smsgate: 'gateways.unlockForSim', goip: 'gateways.unlockForLine' },
  role: { ejoin: 'gateways.roleFor', smsgate: 'gateways.roleForSim', goip: 'gateways.roleForLine' },
  ussd: { ejoin: 'gateways.ussdFor', smsgate: 'gateways.ussdForSim', goip: 'gateways.ussdForLine' },
  origin: { ejoin: 'gateways.originFor', smsgate: 'gateways.originForSim', goip: 'gateways.originForLine' },
};

/** What told a SIM's country, in the user's words. */
export const ORIGIN_SOURCE_TEXT: Record<OriginSource, MessageKey> = {
  imsi: 'gateways.origin.imsi',
  operator: 'gateways.origin.operator',
  iccid: 'gateways.origin.iccid',
  number: 'gateways.origin.number',
  admin: 'gateways.origin.admin',
  default: 'gateways.origin.default',
};

/** The placeholder each kind's texts name the SIM's place by. */
const PLACE_PARAM: Record<DeviceKind, string> = { ejoin: 'port', smsgate: 'slot', goip: 'line' };

/** A SIM action's text in its device's words ("Set number for port 1.01", "… SIM 1", "… line 1"). */
export function simText(t: TFunction, kind: DeviceKind, port: string, action: SimAction): string {
  return t(SIM_ACTION_TEXT[action][kind], { [PLACE_PARAM[kind]]: port });
}

/** A SIM role's name. */
export const ROLE_TEXT: Record<SimRole, MessageKey> = {
  both: 'gateways.roleBoth',
  rental: 'gateways.roleRental',
  messaging: 'gateways.roleMessaging',
};

/** Who locked a SIM: the automatic lock, the device, or an administrator by name. */
export function lockKindText(t: TFunction, lock: Sim['lock']): string {
  return lock.kind === 'auto'
    ? t('gateways.lockKindAuto')
    : lock.kind === 'device'
      ? t('gateways.lockKindDevice')
      : t('gateways.lockKindManual', { by: lock.by ?? '?' });
}

/** How long a lock lasts at `now`: minutes (or hours) left, until unlocked, or until the device recovers. */
export function lockLeftText(t: TFunction, lock: Sim['lock'], now: number): string {
  if (!lock.until)
    return lock.kind === 'device' ? t('gateways.lockUntilRecovers') : t('gateways.lockUntilUnlocked');
  const minutes = Math.max(1, Math.ceil((new Date(lock.until).getTime() - now) / 60_000));
  return minutes < 60
    ? t('gateways.lockLeftMinutes', { minutes })
    : t('gateways.lockLeftHours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

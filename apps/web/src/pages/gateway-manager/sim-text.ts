import { type DeviceKind, SIM_STATE_TEXT, type Sim, type SimRole } from '@simdock/contract';
import type { MessageKey, TFunction } from '../../i18n/index.tsx';

/** A SIM state's name in the user's language ("Registered"); a state the catalogue lacks, as the server said. */
export function simStateName(t: TFunction, state: number, serverText: string): string {
  const key = `gateways.simState.${state}` as MessageKey;
  const text = t(key);
  return text === key ? serverText : text;
}

const STATE_BY_TEXT = new Map(Object.entries(SIM_STATE_TEXT).map(([state, text]) => [text, Number(state)]));

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
  const state = device ? STATE_BY_TEXT.get(device[1] as string) : undefined;
  if (device && state !== undefined)
    return t('gateways.lockReasonDevice', { state: simStateName(t, state, device[1] as string) }) + tail;
  return reason;
}

/** A SIM's text in a box's words (port "1.01") or a phone's (slot: "SIM 1"). */
export function simText(
  t: TFunction,
  kind: DeviceKind,
  port: string,
  box: MessageKey,
  phone: MessageKey,
): string {
  return kind === 'smsgate' ? t(phone, { slot: port }) : t(box, { port });
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

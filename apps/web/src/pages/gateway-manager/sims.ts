import type { DeviceKind, Gateway, Sim } from '@simdock/contract';
import type { MessageKey } from '../../i18n/index.tsx';

// The SIM panel's logic, apart from its rendering (SimPanel.tsx, its columns and dialogs).

/** The SIMs that are usable and those locked. A locked SIM is never counted usable (the server says so too; an older answer may not). */
export function simCounts(sims: readonly Sim[] | undefined): { usable: number; locked: number } {
  return {
    usable: sims?.filter((s) => s.usable && !s.lock.locked).length ?? 0,
    locked: sims?.filter((s) => s.lock.locked).length ?? 0,
  };
}

/**
 * The hint above a gateway's SIMs. A phone in Cloud/Private mode: its numbers come masked (set them
 * by hand); in Local mode, only while a SIM has no number. A GoIP box: while a line reports no number
 * (its keepalives carry one only when the box knows it). None for an Ejoin box.
 */
export function simsHintKey(
  gateway: Pick<Gateway, 'kind' | 'mode'>,
  sims: readonly Sim[] | undefined,
): MessageKey | undefined {
  if (gateway.kind === 'goip')
    return sims?.some((s) => !s.number && s.state !== 'empty') ? 'gateways.simsGoipHint' : undefined;
  if (gateway.kind !== 'smsgate') return undefined;
  if (gateway.mode !== 'local') return 'gateways.simsPhoneHint';
  return sims?.some((s) => !s.number) ? 'gateways.simsPhoneHintLocal' : undefined;
}

export type SimDialogKind = 'number' | 'sms' | 'lock' | 'unlock' | 'ussd' | 'origin';

/** What each of the SIM's dialogs gets. */
export interface SimDialogProps {
  /** How the dialog names the SIM: by port (Ejoin box), slot (phone) or line (GoIP box). */
  deviceKind: DeviceKind;
  gatewayId: string;
  sim: Sim;
  onClose: () => void;
  /** The server's message; `ok` false: done only in part (a number the device did not store). */
  onDone: (msg: string, ok: boolean) => void;
}

export interface LockValues {
  reason: string;
  /** '' = until unlocked. */
  minutes: string;
}

/** The lock or unlock call's body: the reason trimmed; a duration only when locking, and when chosen. */
export function lockBody(gatewayId: string, port: string, v: LockValues, unlock: boolean) {
  return {
    gatewayId,
    port,
    reason: v.reason.trim(),
    ...(v.minutes && !unlock ? { minutes: Number(v.minutes) } : {}),
  };
}

export interface SimulateValues {
  from: string;
  text: string;
}

/** The simulated SMS's body. A blank text counts as none: the contract's schema then refuses it. */
export function simulateBody(gatewayId: string, port: string, v: SimulateValues) {
  return { gatewayId, port, from: v.from.trim(), text: v.text.trim() ? v.text : '' };
}

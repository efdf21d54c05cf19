// SIM health: counters fed by the dispatcher's results and by rentals, automatic locks (failed
// sends in a row, a device reporting the SIM blocked) and the SIM settings (the messaging settings
// route saves them with the bulk SMS limits). An admin's locks and roles: sim-admin.service.ts.
import { isBlockedSimState, isUsableSimState, simStateText } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import type { SimEntry } from './driver/driver.ts';
import {
  applyDeviceStates,
  readSimSettings,
  readSimSettingsForUpdate,
  recordOutcomes,
  type SimOutcome,
  type SimSettingsRow,
  writeSimSettings,
} from './health.queries.ts';

export type { SimOutcome } from './health.queries.ts';

/** The SIM settings as the Settings page names them. */
export interface SimSettings {
  simMaxSmsPerDay: number;
  simMaxSmsPerMonth: number;
  simLockAfterFailures: number;
  simCooldownMinutes: number;
  /** SIMs kept for sending: this percent (rounded down) of the online SIMs with role Both is never rented. */
  simsKeptForSendingPercent: number;
}

const toSimSettings = (r: SimSettingsRow): SimSettings => ({
  simMaxSmsPerDay: r.max_sms_per_day,
  simMaxSmsPerMonth: r.max_sms_per_month,
  simLockAfterFailures: r.lock_after_failures,
  simCooldownMinutes: r.cooldown_minutes,
  simsKeptForSendingPercent: r.kept_for_sending_percent,
});

export async function readSimSettingsOf(q: Queryable): Promise<SimSettings> {
  return toSimSettings(await readSimSettings(q));
}

/**
 * Saves the SIM settings in the caller's transaction (the settings route audits them with the
 * bulk SMS limits); a field left out keeps its value. Returns before and after.
 */
export async function saveSimSettings(
  q: Queryable,
  values: Partial<SimSettings>,
): Promise<{ before: SimSettings; after: SimSettings }> {
  const before = toSimSettings(await readSimSettingsForUpdate(q));
  const after = toSimSettings(
    await writeSimSettings(q, {
      max_sms_per_day: values.simMaxSmsPerDay ?? before.simMaxSmsPerDay,
      max_sms_per_month: values.simMaxSmsPerMonth ?? before.simMaxSmsPerMonth,
      lock_after_failures: values.simLockAfterFailures ?? before.simLockAfterFailures,
      cooldown_minutes: values.simCooldownMinutes ?? before.simCooldownMinutes,
      kept_for_sending_percent: values.simsKeptForSendingPercent ?? before.simsKeptForSendingPercent,
    }),
  );
  return { before, after };
}

/**
 * Adds the outcomes of a batch of sends (the dispatcher's device answers and status reports) in
 * the caller's transaction; SIMs that reached SimLockAfterFailures consecutive failures are locked.
 */
export async function recordSimOutcomes(
  ctx: AppContext,
  q: Queryable,
  outcomes: SimOutcome[],
  at: Date,
): Promise<void> {
  const locked = await recordOutcomes(q, outcomes, at);
  for (const l of locked)
    ctx.log.warn({ simId: l.sim_id, reason: l.lock_reason }, 'SIM locked automatically');
}

/** After a status report: SIMs the device reports blocked are locked; recovered ones cool down. */
export async function applyDeviceSimStates(
  ctx: AppContext,
  q: Queryable,
  gatewayId: string,
  entries: SimEntry[],
  at: Date,
): Promise<void> {
  const blocked = entries
    .filter((e) => isBlockedSimState(e.state))
    .map((e) => ({ port: e.slot, reason: `Device reports: ${simStateText(e.state, e.deviceState)}` }));
  const usable = entries.filter((e) => isUsableSimState(e.state)).map((e) => e.slot);
  const locked = await applyDeviceStates(q, gatewayId, blocked, usable, at);
  for (const l of locked)
    ctx.log.warn({ gatewayId, port: l.port }, 'SIM locked: the device reports it blocked');
}

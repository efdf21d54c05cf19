// A gateway's lastUpdate (its sign of life: Online until 3 minutes of silence) from the pushes that
// carry traffic. Every SMS, MMS and send report says the device is alive, but writing lastUpdate for
// each was one statement and one new row version of the gateway per SMS. Each server process now
// writes it from these pushes at most once every LAST_SEEN_EVERY_MS per gateway; status pushes
// and pings still write it every time.
import type { AppContext } from '../../context.ts';
import { runtimeKey } from '../../runtime.ts';

/** lastUpdate lags a gateway's traffic by at most this much (the online window is 3 minutes). */
export const LAST_SEEN_EVERY_MS = 10_000;

/**
 * Whether a traffic push at `now` should write lastUpdate, given when this process last wrote it
 * from one (undefined: never). A clock that went back writes again.
 */
export function lastSeenDue(lastWritten: number | undefined, now: number): boolean {
  return lastWritten === undefined || now - lastWritten >= LAST_SEEN_EVERY_MS || now < lastWritten;
}

/** When this process last wrote lastUpdate from a traffic push, by gateway id. */
const LAST_WRITTEN = runtimeKey<Map<string, number>>('gateways.lastSeenWritten');

/**
 * The time to write as the gateway's lastUpdate with this push, or undefined when a push of the
 * last LAST_SEEN_EVERY_MS already wrote it. Counts as written once asked (a rolled-back write
 * only makes lastUpdate lag one window more).
 */
export function lastSeenToWrite(ctx: AppContext, gatewayId: string): Date | undefined {
  const written = ctx.runtime.get(LAST_WRITTEN, () => new Map<string, number>());
  const now = ctx.clock.now();
  if (!lastSeenDue(written.get(gatewayId), now.getTime())) return undefined;
  written.set(gatewayId, now.getTime());
  return now;
}

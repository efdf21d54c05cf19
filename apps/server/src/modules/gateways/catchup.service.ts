// Pull catch-up: SMS pushes can be lost (device offline from us, server down, push URL not yet
// set), but the device keeps them in its inbox. Reading it from our last position recovers them;
// dedupe makes the overlap with pushes harmless.
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../../context.ts';
import { isDbUnavailable } from '../../db/errors.ts';
import { runtimeKey } from '../../runtime.ts';
import { driverFor } from './device.ts';
import { GatewayError } from './driver/driver.ts';
import { deviceKind } from './driver/registry.ts';
import { claimDuePulls, type GatewayCredentials, savePullPosition, setPullDue } from './gateways.queries.ts';
import { ingestIncomingSms } from './inbox.service.ts';
import { applyDeviceStatus } from './inventory.service.ts';

export const PULL_PAGE = 100;
export const PULL_PERIOD_MS = 60_000;
const PULL_CONCURRENCY = 2;
/**
 * The catch-up is background work: a busy gateway's minute of SMS, nearly all stored already by
 * the pushes, is read again every minute. After each page it rests PULL_REST times as long as
 * storing the page took (our work, not the device's answer), so a pass is spread out instead of
 * competing with live pushes for a few seconds (those seconds were the OTP benchmark's whole tail;
 * bench/RESULTS.md).
 */
const PULL_REST = 3;

export interface CatchUpResult {
  pulled: number;
  stored: number;
}

/** Reads the device inbox from the saved position, at most `maxPages` pages of PULL_PAGE. */
export async function pullCatchUp(
  ctx: AppContext,
  gw: GatewayCredentials,
  maxPages = 20,
): Promise<CatchUpResult> {
  const driver = driverFor(ctx, gw);
  // A device without an inbox to read (a phone) re-sends what we missed by itself.
  if (!driver.pullSms) return { pulled: 0, stored: 0 };
  let ssrc = gw.sms_ssrc;
  // The saved position, with or without an ssrc (a device that numbers its inbox by its clock has
  // none): it only moves forward, and a device whose ids restarted is caught below.
  let next = Math.max(1, gw.sms_next_id);
  let pulled = 0;
  let stored = 0;
  let restarted = false;
  let rest: Promise<void> = Promise.resolve();
  for (let page = 0; page < maxPages; page++) {
    if (page > 0) await rest;
    const r = await driver.pullSms(next, PULL_PAGE);
    const started = performance.now();
    // A new ssrc (or ids that went backwards) means the device rebooted: its ids restarted at 1.
    const rebooted =
      (r.ssrc !== null && ssrc !== null && r.ssrc !== ssrc) || (r.items.length === 0 && r.nextId < next);
    if (rebooted && next !== 1 && !restarted) {
      restarted = true;
      ssrc = r.ssrc;
      next = 1;
      page--;
      continue;
    }
    ssrc = r.ssrc ?? ssrc;
    pulled += r.items.length;
    if (r.items.length > 0) {
      try {
        const res = await ingestIncomingSms(
          ctx,
          r.items.map((i) => ({ ...i, gatewayId: gw.id })),
        );
        stored += res.stored.length;
      } catch (err) {
        // Bad rows are skipped inside the ingestion; if a page still cannot be stored, the position
        // moves on anyway (a page that always fails would block every later SMS). Only an
        // unreachable database stops here, to read the same page again next time.
        if (isDbUnavailable(err)) throw err;
        ctx.log.error(
          { err, gatewayId: gw.id, fromId: next },
          'SMS catch-up skipped a page it could not store',
        );
      }
    }
    next = Math.max(r.nextId, 1);
    await savePullPosition(ctx.db, gw.id, ssrc, next);
    if (r.items.length < PULL_PAGE) break;
    rest = sleep((performance.now() - started) * PULL_REST);
  }
  if (stored > 0) ctx.log.info({ gatewayId: gw.id, pulled, stored }, 'SMS catch-up recovered missed SMS');
  return { pulled, stored };
}

const FAILURES_LOGGED = runtimeKey<Map<string, number>>('gateways.catchUpFailuresLogged');

/**
 * Whether a failure is logged now: a box read every 10 s with a wrong web password would otherwise
 * write six lines a minute. One line a minute per gateway and reason; the map is bounded.
 */
function firstInAMinute(ctx: AppContext, key: string): boolean {
  const logged = ctx.runtime.get(FAILURES_LOGGED, () => new Map());
  const now = ctx.clock.now().getTime();
  const last = logged.get(key);
  if (last !== undefined && now - last < PULL_PERIOD_MS) return false;
  if (logged.size >= 1000) logged.clear();
  logged.set(key, now);
  return true;
}

/** How often the platform reads a gateway itself (DeviceKindSpec.pollMs); undefined: the usual catch-up. */
function pollPeriod(ctx: AppContext, gw: Pick<GatewayCredentials, 'driver' | 'mode'>): number | undefined {
  return deviceKind(ctx, gw.driver)?.pollMs?.(gw.mode);
}

/**
 * The worker's pass: every enabled gateway whose catch-up is due, claimed so one process pulls it.
 * A gateway the platform must read itself (it pushes nothing) is due again after its own period,
 * and its status is read too, so its SIM states stay fresh and it shows Online.
 */
export async function runDuePullCatchUps(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now();
  const due = await claimDuePulls(ctx.db, now, new Date(now.getTime() + PULL_PERIOD_MS));
  const polled = new Map<number, string[]>();
  for (const gw of due) {
    const period = pollPeriod(ctx, gw);
    if (period !== undefined && period < PULL_PERIOD_MS)
      polled.set(period, [...(polled.get(period) ?? []), gw.id]);
  }
  for (const [period, ids] of polled) await setPullDue(ctx.db, ids, new Date(now.getTime() + period));
  const queue = [...due];
  const work = async () => {
    for (let gw = queue.shift(); gw; gw = queue.shift()) {
      try {
        if (pollPeriod(ctx, gw) !== undefined)
          await applyDeviceStatus(ctx, gw.id, await driverFor(ctx, gw).getStatus());
        await pullCatchUp(ctx, gw);
      } catch (err) {
        // An unreachable device is already shown Offline; other failures deserve attention.
        const quiet = err instanceof GatewayError && (err.kind === 'timeout' || err.kind === 'network');
        const msg = err instanceof GatewayError ? err.message : undefined;
        if (quiet) ctx.log.debug({ gatewayId: gw.id, reason: msg }, 'SMS catch-up: gateway unreachable');
        else if (firstInAMinute(ctx, `${gw.id} ${msg ?? String(err)}`))
          ctx.log.warn(
            { gatewayId: gw.id, reason: msg, err: msg ? undefined : err },
            'SMS catch-up failed (once a minute per gateway and reason)',
          );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PULL_CONCURRENCY, queue.length) }, work));
}

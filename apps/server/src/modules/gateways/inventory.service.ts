// The SIM inventory follows what the device reports: its whole status (Scan or periodic push) or
// a single SIM's. Each report is one transaction.
import type { AppContext } from '../../context.ts';
import { LINE_SILENT_AFTER_MS } from './datagram-ports.ts';
import type { DeviceStatus, SimEntry } from './driver/driver.ts';
import { datagramKinds, deviceKind, linesReportThemselves } from './driver/registry.ts';
import {
  deleteSimsNotIn,
  gatewaysOfKinds,
  markSilentSims,
  refreshGatewayAfterReport,
  upsertSims,
} from './gateways.queries.ts';
import { applyDeviceSimStates } from './health.service.ts';

export async function applyDeviceStatus(
  ctx: AppContext,
  gatewayId: string,
  dev: DeviceStatus,
): Promise<void> {
  const at = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    await upsertSims(q, gatewayId, dev.sims, at);
    // A report that lists every SIM place of the device lets us forget places it no longer has.
    if (dev.complete) {
      await deleteSimsNotIn(
        q,
        gatewayId,
        dev.sims.map((s) => s.slot),
      );
    }
    await applyDeviceSimStates(ctx, q, gatewayId, dev.sims, at);
    await refreshGatewayAfterReport(q, gatewayId, at, dev);
  });
}

export async function applySimStatus(ctx: AppContext, gatewayId: string, sim: SimEntry): Promise<void> {
  const at = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    await upsertSims(q, gatewayId, [sim], at);
    await applyDeviceSimStates(ctx, q, gatewayId, [sim], at);
    await refreshGatewayAfterReport(q, gatewayId, at, null);
  });
}

/**
 * A line that reports itself (a GoIP line's keepalive every 30 s) and fell silent for
 * LINE_SILENT_AFTER_MS (three missed reports) is neither rented nor sent from until it reports again.
 * A gateway whose lines do not report themselves (a box read through its web pages: its Scans say
 * what its SIMs are) is left out.
 */
export async function markSilentLines(ctx: AppContext): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - LINE_SILENT_AFTER_MS);
  const gateways = await gatewaysOfKinds(ctx.db, datagramKinds());
  const reporting = gateways.filter((g) => linesReportThemselves(deviceKind(ctx, g.driver), g.mode));
  return markSilentSims(
    ctx.db,
    reporting.map((g) => g.id),
    before,
  );
}

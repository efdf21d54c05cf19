// The SIM inventory follows what the device reports: its whole status (Scan or periodic push) or
// a single SIM's. Each report is one transaction.
import type { AppContext } from '../../context.ts';
import type { DeviceStatus, SimEntry } from './driver/driver.ts';
import { deleteSimsNotIn, refreshGatewayAfterReport, upsertSims } from './gateways.queries.ts';
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

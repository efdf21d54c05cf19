// The SIM inventory follows what the device reports: a full dev-status (Scan or periodic push)
// or a single port-status push. Each report is one transaction.
import type { AppContext } from '../../context.ts';
import type { DevStatus, PortEntry } from './driver/driver.ts';
import { deleteSimsNotIn, refreshGatewayAfterReport, upsertSims } from './gateways.queries.ts';
import { applyDeviceSimStates } from './health.service.ts';

/** A report that lists every slot of the device lets us forget slots it no longer has. */
function isComplete(dev: DevStatus): boolean {
  return dev.maxPorts !== null && dev.maxSlots !== null && dev.ports.length === dev.maxPorts * dev.maxSlots;
}

export async function applyDevStatus(ctx: AppContext, gatewayId: string, dev: DevStatus): Promise<void> {
  const at = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    await upsertSims(q, gatewayId, dev.ports, at);
    if (isComplete(dev)) {
      await deleteSimsNotIn(
        q,
        gatewayId,
        dev.ports.map((p) => p.port),
      );
    }
    await applyDeviceSimStates(ctx, q, gatewayId, dev.ports, at);
    await refreshGatewayAfterReport(q, gatewayId, at, dev);
  });
}

export async function applyPortStatus(ctx: AppContext, gatewayId: string, entry: PortEntry): Promise<void> {
  const at = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    await upsertSims(q, gatewayId, [entry], at);
    await applyDeviceSimStates(ctx, q, gatewayId, [entry], at);
    await refreshGatewayAfterReport(q, gatewayId, at, null);
  });
}

// The hand-off point for send results (status-report pushes). The messaging issue registers its
// consumer here; until then a report only refreshes the gateway's lastUpdate.
import type { AppContext } from '../../context.ts';
import type { StatusReport } from './driver/driver.ts';

/** Called once per accepted push, after lastUpdate is set; the sdr/fdr rows are deltas to add up. */
export type StatusReportConsumer = (
  ctx: AppContext,
  gatewayId: string,
  report: StatusReport,
) => Promise<void>;

export const statusReportConsumers: StatusReportConsumer[] = [];

export async function handleStatusReport(
  ctx: AppContext,
  gatewayId: string,
  report: StatusReport,
): Promise<void> {
  for (const consume of statusReportConsumers) await consume(ctx, gatewayId, report);
}

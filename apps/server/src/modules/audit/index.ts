import type { AppContext } from '../../context.ts';
import { cutoffDays, drainInBatches } from '../../db/retention.ts';
import type { ConfiguredModule } from '../../module.ts';
import { auditConfig } from './audit.config.ts';
import { pruneAudit } from './audit.queries.ts';
import { auditRoutes } from './audit.routes.ts';

// Audit: the record of admin actions (who, what, before/after, when). Other modules call
// `recordAudit` in the transaction of the action; audit imports no other module.
export { type AuditActor, recordAudit } from './audit.service.ts';

/** Deletes entries older than AUDIT_RETENTION_DAYS (0 keeps them), in bounded batches. */
export async function pruneAuditLog(ctx: AppContext): Promise<number> {
  const before = cutoffDays(ctx.clock.now(), ctx.config.AUDIT_RETENTION_DAYS);
  return before ? drainInBatches((n) => pruneAudit(ctx.db, before, n)) : 0;
}

export { auditConfig };

export const auditModule: ConfiguredModule<typeof auditConfig> = {
  name: 'audit',
  tables: ['audit_log'],
  config: auditConfig,
  routes: auditRoutes,
  jobs: [
    {
      name: 'audit-retention',
      intervalMs: () => 60_000,
      run: async (ctx) => {
        const n = await pruneAuditLog(ctx);
        if (n) ctx.log.info({ deleted: n }, 'old audit entries deleted');
      },
    },
  ],
};

import type { ModuleDescriptor } from '../../module.ts';
import { auditRoutes } from './audit.routes.ts';

// Audit: the record of admin actions (who, what, before/after, when). Other modules call
// `recordAudit` in the transaction of the action; audit imports no other module.
export { type AuditAction, type AuditActor, recordAudit } from './audit.service.ts';

export const auditModule: ModuleDescriptor = { name: 'audit', tables: ['audit_log'], routes: auditRoutes };

import { z } from 'zod';
import { defineConfig } from '../../config.ts';

/** Retention of the audit log (docs/operations.md, "Data retention"); 0 keeps it forever. */
export const auditConfig = defineConfig({
  shape: {
    /** Audit log entries are kept this long. */
    AUDIT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(730),
  },
});

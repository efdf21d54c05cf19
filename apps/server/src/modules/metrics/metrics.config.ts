import { z } from 'zod';
import { defineConfig } from '../../config.ts';

/** Access to `GET /metrics`. */
export const metricsConfig = defineConfig({
  shape: {
    /**
     * GET /metrics (Prometheus): when set, scrapes need `Authorization: Bearer <token>`; when unset
     * the endpoint is open outside production and absent (404) with NODE_ENV=production.
     */
    METRICS_TOKEN: z
      .string()
      .min(16, 'must be at least 16 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
      .optional(),
  },
});

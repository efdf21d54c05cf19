import { z } from 'zod';
import { bool, defineConfig } from '../../config.ts';

/** Where webhook URLs may point and how often deliveries run. */
export const webhooksConfig = defineConfig({
  shape: {
    /** Webhook URLs on private, loopback or link-local addresses (SSRF): allowed outside production by default. */
    WEBHOOK_ALLOW_PRIVATE: bool.optional(),
    WEBHOOK_INTERVAL_MS: z.coerce.number().int().positive().default(1000),
  },
  resolve: (c, kernel) => ({
    WEBHOOK_ALLOW_PRIVATE: c.WEBHOOK_ALLOW_PRIVATE ?? kernel.NODE_ENV !== 'production',
  }),
});

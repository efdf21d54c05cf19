import { z } from 'zod';
import { defineConfig } from '../../config.ts';

/**
 * Where GoIP boxes' lines connect (docs/devices-goip.md), and the retention of what the gateways
 * module stores (docs/operations.md, "Data retention"; 0 keeps the data forever).
 */
export const gatewaysConfig = defineConfig({
  shape: {
    /** The UDP port GoIP lines send to (the box's "SMS server port"); one server process at a time holds it. 0 picks a free one (tests). */
    GOIP_UDP_PORT: z.coerce.number().int().min(0).max(65_535).default(44444),
    /** The address the GoIP port is bound to. */
    GOIP_UDP_HOST: z.string().min(1).default('0.0.0.0'),
    /** Raw gateway uptime samples (one per gateway and minute) are kept this long; at least 25 h (the 24-h figure reads its first partial hour from them). */
    UPTIME_SAMPLES_RETENTION_HOURS: z.coerce
      .number()
      .int()
      .refine((v) => v === 0 || (v >= 25 && v <= 87_600), 'must be 0 (keep) or 25 to 87600 hours')
      .default(48),
    /** Hourly gateway uptime (what the uptime figures read) is kept this long; at least 2 days. */
    UPTIME_HOURLY_RETENTION_DAYS: z.coerce
      .number()
      .int()
      .refine((v) => v === 0 || (v >= 2 && v <= 36_500), 'must be 0 (keep) or 2 to 36500 days')
      .default(400),
    /** Incoming SMS no rental or chat took (unmatched SMS, delivery reports) are kept this long. */
    INCOMING_SMS_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(90),
  },
});

import { z } from 'zod';
import { defineConfig } from '../../config.ts';

/** The bulk SMS dispatcher. */
export const messagingConfig = defineConfig({
  shape: {
    /** Bulk SMS: messages one SIM may hand to its device per minute (carriers block faster senders). */
    SMS_PER_SIM_PER_MINUTE: z.coerce.number().int().min(1).max(60_000).default(6),
    /** Bulk SMS: how often the dispatcher claims queued messages. */
    SMS_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
    /** Bulk SMS: a claim not finished within this long (a crashed dispatcher) is claimed again. */
    SMS_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
    /** Bulk SMS: tries of one message on different SIMs when a SIM cannot send (unregistered, timeout). */
    SMS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(8).default(3),
    /** Bulk SMS: a message accepted by a device with no result after this long is failed. */
    SMS_RESULT_TIMEOUT_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60)
      .default(30),
  },
});

import { z } from 'zod';
import { defineConfig } from '../../config.ts';

/** Orders, number reuse, the catalogue's availability cache and the sweep of expired orders. */
export const rentalConfig = defineConfig({
  shape: {
    CANCEL_MIN_SECONDS: z.coerce.number().int().min(0).default(120),
    /**
     * Rental: how many times a number returns to a service's pool after a rental of it for that
     * service ended without any SMS (cancelled or expired, refunded). With 3, a number nobody ever got
     * an SMS on can be rented 4 times for one service; 0 = once ever (the rule before this setting).
     */
    NUMBER_REUSE_LIMIT: z.coerce.number().int().min(0).max(1000).default(3),
    /**
     * Rental: cancellations one user may make in any hour (refused with 429 beyond); 0 = no cap.
     * Refunded cancellations cost nothing, so they are capped rather than free to repeat.
     */
    RENTAL_CANCELS_PER_HOUR: z.coerce.number().int().min(0).max(100_000).default(20),
    /**
     * Rental: minutes a number stays out of the service's pool after an empty rental of it ended, so
     * a service's SMS that arrives late for that rental cannot reach the next renter.
     */
    NUMBER_REUSE_COOLDOWN_MINUTES: z.coerce.number().int().min(0).max(10_080).default(10),
    /**
     * Seconds a process reuses the catalogue's availability it computed, at most, when no rent, release
     * or change in this process or an event from another one told it otherwise (docs/architecture.md,
     * "The catalogue's availability"). 0 = computed for every call.
     */
    CATALOGUE_CACHE_SECONDS: z.coerce.number().min(0).max(300).default(5),
    SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(5000),
  },
});

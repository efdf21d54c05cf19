import { z } from 'zod';
import { defineConfig } from '../../config.ts';

/** The per-key rate limit the API-key authenticator applies. */
export const apikeyConfig = defineConfig({
  shape: {
    /** Calls one API key may make per window (rental API and SMS-Activate handler together). */
    API_RATE_LIMIT: z.coerce.number().int().positive().default(50),
    API_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().max(3600).default(10),
  },
});

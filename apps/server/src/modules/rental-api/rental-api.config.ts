import { z } from 'zod';
import { defineConfig } from '../../config.ts';

/** The SMS-Activate handler's country. */
export const rentalApiConfig = defineConfig({
  shape: {
    /** The one country our numbers are offered under in the SMS-Activate handler (187 = USA there). */
    API_COUNTRY_ID: z.coerce.number().int().min(0).max(100000).default(187),
    API_COUNTRY_NAME: z.string().min(1).max(64).default('USA'),
    API_COUNTRY_PHONE_CODE: z.coerce.number().int().min(1).max(9999).default(1),
  },
});

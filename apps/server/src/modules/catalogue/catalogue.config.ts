import { z } from 'zod';
import { defineConfig } from '../../config.ts';

export const catalogueConfig = defineConfig({
  shape: {
    /**
     * Where a SIM counts when nothing it reports tells its country (ISO 3166-1 alpha-2), and the
     * country of every SIM before countries were known.
     */
    DEFAULT_COUNTRY: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, 'a two-letter country code, like US')
      .default('US'),
  },
});

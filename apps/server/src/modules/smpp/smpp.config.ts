import { z } from 'zod';
import { defineConfig } from '../../config.ts';

/** Where SMPP clients bind (docs/api.md, "SMPP"). */
export const smppConfig = defineConfig({
  shape: {
    /** The plain SMPP port; every server process listens on it. 0 picks a free one (tests). */
    SMPP_PORT: z.coerce.number().int().min(0).max(65_535).default(2775),
    /** The SMPP-over-TLS port, listened on only when SMPP_TLS_CERT and SMPP_TLS_KEY are both set. */
    SMPP_TLS_PORT: z.coerce.number().int().min(0).max(65_535).default(3550),
    /** PEM certificate file (chain) of the SMPP TLS port. */
    SMPP_TLS_CERT: z.string().min(1).optional(),
    /** PEM private key file of the SMPP TLS port. */
    SMPP_TLS_KEY: z.string().min(1).optional(),
    /** The address the SMPP ports are bound to. */
    SMPP_HOST: z.string().min(1).default('0.0.0.0'),
  },
});

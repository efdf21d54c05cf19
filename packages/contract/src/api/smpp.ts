import { z } from 'zod';
import { boundedText, TEXT_LIMITS as L } from '../limits.ts';

// ---- SMPP 3.4 credentials of an API key (docs/api.md, "SMPP") ------------------------------------

/** A bind's `system_id` is at most 15 characters on the wire. */
export const SMPP_SYSTEM_ID_MAX = 15;
/** Many clients truncate the bind password to 8 characters: the server makes exactly 8. */
export const SMPP_PASSWORD_LENGTH = 8;

/** POST /api/user/apikeys/smppPassword: which key (it needs the `messaging:send` scope). */
export const SmppPasswordBody = z.object({ id: boundedText(L.id, 'Key id') });
export type SmppPasswordBody = z.input<typeof SmppPasswordBody>;

/** The key's SMPP credential: the password in clear this once (only its hash is kept). */
export const SmppPasswordResponse = z.object({
  code: z.literal(1),
  msg: z.string(),
  systemId: z.string(),
  password: z.string(),
  host: z.string(),
  /** The plain SMPP port. */
  port: z.number().int(),
  /** The SMPP-over-TLS port; null when TLS is not configured. */
  tlsPort: z.number().int().nullable(),
});
export type SmppPasswordResponse = z.infer<typeof SmppPasswordResponse>;

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

// ---- An admin's SMPP limits for one user (all of the user's SMPP credentials) -------------------

export const SMPP_RATE_MAX = 1000;
export const SMPP_BIND_LIMIT_MAX = 10;
/** What a credential has when the admin set nothing for its user. */
export const SMPP_DEFAULT_RATE = 30;
export const SMPP_DEFAULT_BIND_LIMIT = 2;

const RATE_MESSAGE = `Rate must be a whole number of messages per second from 1 to ${SMPP_RATE_MAX}.`;
const BIND_MESSAGE = `Bind limit must be a whole number from 1 to ${SMPP_BIND_LIMIT_MAX}.`;

/** POST /api/Admin/smppLimits: whose limits. */
export const SmppLimitsBody = z.object({ userId: boundedText(L.id, 'User id') });
export type SmppLimitsBody = z.input<typeof SmppLimitsBody>;

/** POST /api/Admin/setSmppLimits: the user's new rate and bind limit. */
export const SetSmppLimitsBody = z.object({
  userId: boundedText(L.id, 'User id'),
  ratePerSecond: z
    .number({ error: RATE_MESSAGE })
    .int(RATE_MESSAGE)
    .min(1, RATE_MESSAGE)
    .max(SMPP_RATE_MAX, RATE_MESSAGE),
  bindLimit: z
    .number({ error: BIND_MESSAGE })
    .int(BIND_MESSAGE)
    .min(1, BIND_MESSAGE)
    .max(SMPP_BIND_LIMIT_MAX, BIND_MESSAGE),
});
export type SetSmppLimitsBody = z.input<typeof SetSmppLimitsBody>;

/** The user's limits; `custom` is false when the defaults apply (nothing set by an admin). */
export const SmppLimitsResponse = z.object({
  code: z.literal(1),
  userId: z.string(),
  ratePerSecond: z.number().int(),
  bindLimit: z.number().int(),
  custom: z.boolean(),
});
export type SmppLimitsResponse = z.infer<typeof SmppLimitsResponse>;

import { z } from 'zod';
import { boundedText } from '../limits.ts';
import { PASSWORD_MAX } from '../rules.ts';

// A TOTP second factor (RFC 6238): enrolment on User Info, the second sign-in step.

/** What a user types: six digits, or a recovery code (`xxxxx-xxxxx`); spaces and dashes are ignored. */
export const SECOND_FACTOR_CODE_MAX = 64;
/** Wrong codes one sign-in challenge accepts before it is void. */
export const SECOND_FACTOR_MAX_ATTEMPTS = 5;
/** How long a sign-in challenge is valid. */
export const SECOND_FACTOR_CHALLENGE_SECONDS = 300;
export const RECOVERY_CODE_COUNT = 10;

export const SecondFactorCodeBody = z.object({
  code: boundedText(SECOND_FACTOR_CODE_MAX, 'Code'),
});
export type SecondFactorCodeBody = z.infer<typeof SecondFactorCodeBody>;

export const SecondFactorStatus = z.object({
  code: z.literal(1),
  enabled: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
  /** This account must enrol before it can do anything else (an admin under REQUIRE_ADMIN_2FA). */
  required: z.boolean(),
});
export type SecondFactorStatus = z.infer<typeof SecondFactorStatus>;

export const SecondFactorStartResponse = z.object({
  code: z.literal(1),
  /** Base32, for typing into an authenticator app by hand. */
  secret: z.string(),
  /** The `otpauth://totp/…` URI the QR code holds. */
  uri: z.string(),
  /** The QR code of `uri`, as an SVG data URL. */
  qr: z.string(),
});
export type SecondFactorStartResponse = z.infer<typeof SecondFactorStartResponse>;

/** Recovery codes are shown once, in this answer. */
export const RecoveryCodesResponse = z.object({
  code: z.literal(1),
  msg: z.string(),
  recoveryCodes: z.array(z.string()),
});
export type RecoveryCodesResponse = z.infer<typeof RecoveryCodesResponse>;

export const SecondFactorLoginBody = z.object({
  challenge: boundedText(128, 'Challenge'),
  code: boundedText(SECOND_FACTOR_CODE_MAX, 'Code'),
});
export type SecondFactorLoginBody = z.infer<typeof SecondFactorLoginBody>;

/** The sign-in answer after a correct password for an account with the factor on: no token yet. */
export const SecondFactorChallenge = z.object({
  secondFactor: z.literal(true),
  challenge: z.string(),
  expiresIn: z.number().int(),
  attemptsLeft: z.number().int(),
});
export type SecondFactorChallenge = z.infer<typeof SecondFactorChallenge>;

// ---- re-authentication ------------------------------------------------------------------------------

/**
 * The request header that carries a re-authentication proof (`POST /api/Auth/reauth`) to a call
 * that needs a fresh one: the second factor, API keys, webhooks.
 */
export const REAUTH_HEADER = 'x-reauth';
/** How long a re-authentication proof is valid. */
export const REAUTH_SECONDS = 600;

/** The password again, and a code (or a recovery code) when the second factor is on. */
export const ReauthBody = z.object({
  password: boundedText(PASSWORD_MAX, 'Password'),
  code: boundedText(SECOND_FACTOR_CODE_MAX, 'Code').optional(),
});
export type ReauthBody = z.infer<typeof ReauthBody>;

export const ReauthResponse = z.object({
  code: z.literal(1),
  /** Send it as the `X-Reauth` header with the guarded call; valid `expiresIn` seconds. */
  reauth: z.string(),
  expiresIn: z.number().int(),
});
export type ReauthResponse = z.infer<typeof ReauthResponse>;

export const ResetSecondFactorBody = z.object({ id: z.string().max(64) });
export const SecondFactorOk = z.object({ code: z.literal(1), msg: z.string() });

import { z } from 'zod';
import { bool, defineConfig } from '../../config.ts';

/** Sign-in, second factor, recovery and registration limits: the auth module's rules. */
export const authConfig = defineConfig({
  shape: {
    TOKEN_TTL_HOURS: z.coerce.number().positive().default(24),
    /** Hard limit (429) per username and client address: an attacker elsewhere cannot lock the owner out. */
    LOGIN_MAX_FAILURES_PER_USER_IP: z.coerce.number().int().positive().default(5),
    /** Hard limit (429) per client address, across usernames. */
    LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().positive().default(30),
    /** Per username across addresses only a slow-down: failed sign-ins past this many are answered late. */
    LOGIN_SLOWDOWN_AFTER: z.coerce.number().int().min(0).default(5),
    /** The slow-down doubles from 250 ms per further failure up to this. */
    LOGIN_SLOWDOWN_MAX_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
    LOGIN_WINDOW_MINUTES: z.coerce.number().positive().default(15),
    /**
     * Hard limit (429) per account, across addresses: checked failures per LOGIN_WINDOW_MINUTES. A
     * browser that signed in before (its device token) is exempt, so the owner is not locked out.
     */
    LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(10),
    /**
     * Wrong second-factor codes one account may have per SECOND_FACTOR_WINDOW_MINUTES, across sign-in
     * challenges, turning the factor off, new recovery codes and re-authentication; then 429: no new
     * challenge, no code checked, until the window ends (audited and mailed to the owner once a window).
     */
    SECOND_FACTOR_MAX_FAILURES: z.coerce.number().int().positive().default(5),
    /** The same per client address (IPv6: its /64), across accounts. */
    SECOND_FACTOR_MAX_FAILURES_PER_IP: z.coerce.number().int().positive().default(20),
    SECOND_FACTOR_WINDOW_MINUTES: z.coerce.number().positive().default(60),
    /** Password resets (`POST /api/Auth/reset`) one client address (IPv6: its /64) may try per hour. */
    RESETS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().positive().default(20),
    /** Accounts one client address (IPv6: its /64) may register per hour; 0 = no limit. */
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(0).default(10),
    /** Accounts registered per hour in all; 0 = no limit. */
    REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(0).default(1000),
    /** Admin9 accounts must enrol a TOTP second factor (their sessions reach only enrolment until then); on in production by default. */
    REQUIRE_ADMIN_2FA: bool.optional(),
  },
  problems: (env) =>
    env.LOGIN_MAX_FAILURES_PER_USER === undefined
      ? []
      : [
          'LOGIN_MAX_FAILURES_PER_USER: renamed to LOGIN_MAX_FAILURES_PER_USER_IP (the limit is per username and client address)',
        ],
  // On in production by default.
  resolve: (c, kernel) => ({ REQUIRE_ADMIN_2FA: c.REQUIRE_ADMIN_2FA ?? kernel.NODE_ENV === 'production' }),
});

import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Every setting the server reads from the environment, validated once at start. */
export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  PUBLIC_URL: z.url('must be a URL such as http://203.0.113.5:3000').optional(),
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
  /** Calls one API key may make per window (rental API and SMS-Activate handler together). */
  API_RATE_LIMIT: z.coerce.number().int().positive().default(50),
  /**
   * Calls of the public catalogue (`Service/getall`) one client address may make per minute, per
   * server process; beyond it a 429 with Retry-After. 0 = no limit.
   */
  CATALOGUE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(120),
  /**
   * Milliseconds a refused catalogue call waits before its 429: a caller looping on refusals then
   * costs the server one answer per connection and delay instead of thousands a second, CPU the
   * device pushes and rentals need. 0 = answered at once.
   */
  CATALOGUE_REFUSAL_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
  /**
   * Seconds a process reuses the catalogue's availability it computed, at most, when no rent, release
   * or change in this process or an event from another one told it otherwise (docs/architecture.md,
   * "The catalogue's availability"). 0 = computed for every call.
   */
  CATALOGUE_CACHE_SECONDS: z.coerce.number().min(0).max(300).default(5),
  /**
   * PostgreSQL connections per process for heavy reads (the catalogue's availability, admin counts),
   * apart from the 10 of everything else, so they cannot take the OTP path's connections.
   */
  DATABASE_HEAVY_POOL_SIZE: z.coerce.number().int().min(1).max(50).default(2),
  API_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().max(3600).default(10),
  /** The one country our numbers are offered under in the SMS-Activate handler (187 = USA there). */
  API_COUNTRY_ID: z.coerce.number().int().min(0).max(100000).default(187),
  API_COUNTRY_NAME: z.string().min(1).max(64).default('USA'),
  API_COUNTRY_PHONE_CODE: z.coerce.number().int().min(1).max(9999).default(1),
  /** Webhook URLs on private, loopback or link-local addresses (SSRF): allowed outside production by default. */
  WEBHOOK_ALLOW_PRIVATE: bool.optional(),
  WEBHOOK_INTERVAL_MS: z.coerce.number().int().positive().default(1000),
  SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(5000),
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
  // Data retention (docs/operations.md, "Data retention"); 0 keeps the data forever.
  /** Raw gateway uptime samples (one per gateway and minute) are kept this long; at least 25 h (the 24-h figure reads its first partial hour from them). */
  UPTIME_SAMPLES_RETENTION_HOURS: z.coerce
    .number()
    .int()
    .refine((v) => v === 0 || (v >= 25 && v <= 87_600), 'must be 0 (keep) or 25 to 87600 hours')
    .default(48),
  /** Hourly gateway uptime (what the uptime figures read) is kept this long; at least 2 days. */
  UPTIME_HOURLY_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .refine((v) => v === 0 || (v >= 2 && v <= 36_500), 'must be 0 (keep) or 2 to 36500 days')
    .default(400),
  /** Incoming SMS no rental or chat took (unmatched SMS, delivery reports) are kept this long. */
  INCOMING_SMS_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(90),
  /** Audit log entries are kept this long. */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(730),
  /** Behind a reverse proxy: take the client address from X-Forwarded-For (else it could be forged). */
  TRUST_PROXY: bool.default(false),
  /** Admin9 accounts must enrol a TOTP second factor (their sessions reach only enrolment until then); on in production by default. */
  REQUIRE_ADMIN_2FA: bool.optional(),
  DEMO: bool.optional(),
  DEMO_GATEWAY_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * GET /metrics (Prometheus): when set, scrapes need `Authorization: Bearer <token>`; when unset
   * the endpoint is open outside production and absent (404) with NODE_ENV=production.
   */
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  /**
   * Outgoing mail (password recovery): `smtp://user:pass@host:587` (STARTTLS when offered) or
   * `smtps://user:pass@host:465` (TLS from the start). Unset: no mail is sent (see mail/).
   */
  SMTP_URL: z
    .url({
      protocol: /^smtps?$/,
      hostname: /./,
      error: 'must be a URL such as smtp://user:pass@mail.example.com:587 or smtps://…',
    })
    .optional(),
  /** The sender of every mail: `SimDock <no-reply@example.com>` or a bare address. */
  MAIL_FROM: z
    .string()
    .max(200)
    .regex(
      /^(?:[^<>]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/,
      'must be an address such as SimDock <no-reply@example.com>',
    )
    .default('SimDock <no-reply@simdock.local>'),
  /** What the forgot-password page says when no mail can be sent. */
  SUPPORT_CONTACT: z.string().min(1).max(300).default('Ask your administrator to reset your password.'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `json` lines for collectors, `pretty` for people; `auto`: pretty when stdout is a terminal. */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  WEB_DIST: z.string().optional(),
  /** Top-up provider: `sandbox` (default outside production), `nowpayments`, or `none` (top-up off; production default). */
  PAYMENT_PROVIDER: z.enum(['sandbox', 'nowpayments', 'none']).optional(),
  NOWPAYMENTS_API_URL: z
    .url('must be a URL such as https://api.nowpayments.io/v1')
    .default('https://api.nowpayments.io/v1'),
  NOWPAYMENTS_API_KEY: z.string().optional(),
  NOWPAYMENTS_IPN_SECRET: z.string().optional(),
  /** Dashboard login: lets the reconciliation list an invoice's payments (`GET /v1/payment/?invoiceId=`). */
  NOWPAYMENTS_EMAIL: z.string().optional(),
  NOWPAYMENTS_PASSWORD: z.string().optional(),
  /** Coin pinned on every invoice; `any` lets the payer choose on the hosted page. */
  NOWPAYMENTS_PAY_CURRENCY: z
    .string()
    .regex(/^[a-z0-9]+$/i, 'must be a coin code such as usdttrc20, or any')
    .default('usdttrc20'),
  NOWPAYMENTS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** An invoice nobody paid is FAILED (gwStatus `expired`) after this long. */
  PAYMENT_INVOICE_TTL_HOURS: z.coerce.number().positive().default(24),
  /** How often the reconciliation asks the provider about unfinished payments. */
  PAYMENT_RECONCILE_INTERVAL_MS: z.coerce.number().int().positive().default(60_000),
  /** An unfinished payment is asked about once it has been quiet this long (and again after as long). */
  PAYMENT_RECONCILE_AFTER_MINUTES: z.coerce.number().min(0).default(10),
});

/** Rules across settings, checked on the raw values so they are listed with every other problem. */
function crossProblems(env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  if (env.NODE_ENV === 'production' && !env.APP_SECRET) {
    problems.push('APP_SECRET: is required when NODE_ENV=production');
  }
  if (env.LOGIN_MAX_FAILURES_PER_USER !== undefined) {
    problems.push(
      'LOGIN_MAX_FAILURES_PER_USER: renamed to LOGIN_MAX_FAILURES_PER_USER_IP (the limit is per username and client address)',
    );
  }
  if (env.NODE_ENV === 'production' && ['true', '1', 'yes'].includes(env.DEMO ?? '')) {
    problems.push('DEMO: the demo never runs with NODE_ENV=production');
  }
  const provider = env.PAYMENT_PROVIDER;
  if (env.NODE_ENV === 'production' && provider === 'sandbox') {
    problems.push(
      'PAYMENT_PROVIDER: the sandbox moves no real money and never runs with NODE_ENV=production',
    );
  }
  if (provider === 'nowpayments') {
    for (const name of ['NOWPAYMENTS_API_KEY', 'NOWPAYMENTS_IPN_SECRET'] as const) {
      if (!env[name]) problems.push(`${name}: is required when PAYMENT_PROVIDER=nowpayments`);
    }
  }
  return problems;
}

export type RawConfig = z.infer<typeof ConfigSchema>;
export interface Config
  extends Omit<
    RawConfig,
    'APP_SECRET' | 'PUBLIC_URL' | 'DEMO' | 'PAYMENT_PROVIDER' | 'WEBHOOK_ALLOW_PRIVATE' | 'REQUIRE_ADMIN_2FA'
  > {
  REQUIRE_ADMIN_2FA: boolean;
  APP_SECRET: string;
  WEBHOOK_ALLOW_PRIVATE: boolean;
  PUBLIC_URL: string;
  DEMO: boolean;
  PAYMENT_PROVIDER: 'sandbox' | 'nowpayments' | 'none';
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses the environment; a bad value throws a ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(given);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.') || 'env'}: ${i.message}`)),
    ...crossProblems(given),
  ];
  if (!parsed.success || problems.length) throw new ConfigError(problems);
  const c = parsed.data;
  const dataDir = resolve(c.DATA_DIR);
  return {
    ...c,
    DATA_DIR: dataDir,
    APP_SECRET: c.APP_SECRET ?? persistedSecret(dataDir),
    PUBLIC_URL: (c.PUBLIC_URL ?? `http://127.0.0.1:${c.PORT}`).replace(/\/$/, ''),
    // The demo runs by default on the embedded database outside production.
    DEMO: c.DEMO ?? (c.NODE_ENV === 'development' && !c.DATABASE_URL),
    PAYMENT_PROVIDER: c.PAYMENT_PROVIDER ?? (c.NODE_ENV === 'production' ? 'none' : 'sandbox'),
    WEBHOOK_ALLOW_PRIVATE: c.WEBHOOK_ALLOW_PRIVATE ?? c.NODE_ENV !== 'production',
    // The demo never runs in production, so it is off there unless asked for.
    REQUIRE_ADMIN_2FA: c.REQUIRE_ADMIN_2FA ?? c.NODE_ENV === 'production',
  };
}

/** Outside production a secret is generated once and kept in the data directory. */
function persistedSecret(dataDir: string): string {
  const file = join(dataDir, 'app-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, type ConfigOwner, composeConfig, defineConfig, KERNEL_CONFIG } from './config.ts';
import { MODULES } from './modules/index.ts';
import { ConfigSchema, loadConfig } from './settings.ts';

describe('loadConfig', () => {
  it('applies the defaults: port 3000, embedded database, generated secret, demo on', () => {
    const dir = `/tmp/simdock-config-${process.pid}`;
    const c = loadConfig({ DATA_DIR: dir });
    expect(c.PORT).toBe(3000);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.APP_SECRET.length).toBeGreaterThanOrEqual(32);
    // The generated secret is kept: the next start reads the same one.
    expect(loadConfig({ DATA_DIR: dir }).APP_SECRET).toBe(c.APP_SECRET);
    expect(c.DEMO).toBe(true);
    expect(c.PUBLIC_URL).toBe('http://127.0.0.1:3000');
  });

  it('lists every bad value at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', NODE_ENV: 'production' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/^PORT: /m);
    expect(problems).toMatch(/^DATABASE_URL: must be a postgres:\/\/ URL/m);
    expect(problems).toMatch(/^APP_SECRET: is required when NODE_ENV=production/m);
  });

  it('never runs the demo in production, and turns it off with a database server', () => {
    const secret = 'x'.repeat(40);
    expect(loadConfig({ NODE_ENV: 'production', APP_SECRET: secret }).DEMO).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', APP_SECRET: secret, DEMO: 'true' })).toThrow(
      ConfigError,
    );
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db', DATA_DIR: '/tmp/simdock-config-pg' }).DEMO).toBe(
      false,
    );
  });

  it('takes a metrics token of at least 16 printable characters, and none by default', () => {
    const dir = '/tmp/simdock-config-metrics';
    expect(loadConfig({ DATA_DIR: dir }).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, METRICS_TOKEN: 'scrape-token-0123456789' }).METRICS_TOKEN).toBe(
      'scrape-token-0123456789',
    );
    for (const [token, problem] of [
      ['short', /^METRICS_TOKEN: must be at least 16 characters/m],
      ['has a space in it somewhere', /^METRICS_TOKEN: must be printable ASCII without spaces/m],
    ] as const) {
      let error: unknown;
      try {
        loadConfig({ DATA_DIR: dir, METRICS_TOKEN: token });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join('\n')).toMatch(problem);
    }
  });
});

// Every setting the server had when they were one schema in config.ts (the split into the kernel's
// and the modules' fragments neither lost nor added one), and the ones added since.
const SETTINGS = [
  'ADMIN_PASSWORD',
  'API_RATE_LIMIT',
  'API_RATE_WINDOW_SECONDS',
  'APP_SECRET',
  'AUDIT_RETENTION_DAYS',
  'CANCEL_MIN_SECONDS',
  'CATALOGUE_CACHE_SECONDS',
  'CATALOGUE_RATE_LIMIT_PER_MINUTE',
  'CATALOGUE_REFUSAL_DELAY_MS',
  'DATABASE_HEAVY_POOL_SIZE',
  'DATABASE_URL',
  'DATA_DIR',
  'DEFAULT_COUNTRY',
  'DEMO',
  'DEMO_GATEWAY_PORT',
  'GOIP_UDP_HOST',
  'GOIP_UDP_PORT',
  'HOST',
  'INCOMING_SMS_RETENTION_DAYS',
  'LOGIN_MAX_FAILURES_PER_ACCOUNT',
  'LOGIN_MAX_FAILURES_PER_IP',
  'LOGIN_MAX_FAILURES_PER_USER_IP',
  'LOGIN_SLOWDOWN_AFTER',
  'LOGIN_SLOWDOWN_MAX_MS',
  'LOGIN_WINDOW_MINUTES',
  'LOG_FORMAT',
  'LOG_LEVEL',
  'MAIL_FROM',
  'METRICS_TOKEN',
  'NODE_ENV',
  'NOWPAYMENTS_API_KEY',
  'NOWPAYMENTS_API_URL',
  'NOWPAYMENTS_EMAIL',
  'NOWPAYMENTS_IPN_SECRET',
  'NOWPAYMENTS_PASSWORD',
  'NOWPAYMENTS_PAY_CURRENCY',
  'NOWPAYMENTS_TIMEOUT_MS',
  'NUMBER_REUSE_COOLDOWN_MINUTES',
  'NUMBER_REUSE_LIMIT',
  'PAYMENT_INVOICE_TTL_HOURS',
  'PAYMENT_PROVIDER',
  'PAYMENT_RECONCILE_AFTER_MINUTES',
  'PAYMENT_RECONCILE_INTERVAL_MS',
  'PORT',
  'PUBLIC_URL',
  'REGISTRATIONS_PER_ADDRESS_PER_HOUR',
  'REGISTRATIONS_PER_HOUR',
  'RENTAL_CANCELS_PER_HOUR',
  'REQUIRE_ADMIN_2FA',
  'RESETS_PER_ADDRESS_PER_HOUR',
  'SECOND_FACTOR_MAX_FAILURES',
  'SECOND_FACTOR_MAX_FAILURES_PER_IP',
  'SECOND_FACTOR_WINDOW_MINUTES',
  'SMPP_HOST',
  'SMPP_PORT',
  'SMPP_TLS_CERT',
  'SMPP_TLS_KEY',
  'SMPP_TLS_PORT',
  'SMS_DISPATCH_INTERVAL_MS',
  'SMS_LEASE_SECONDS',
  'SMS_MAX_ATTEMPTS',
  'SMS_PER_SIM_PER_MINUTE',
  'SMS_RESULT_TIMEOUT_MINUTES',
  'SMTP_URL',
  'SUPPORT_CONTACT',
  'SWEEP_INTERVAL_MS',
  'TOKEN_TTL_HOURS',
  'TRUST_PROXY',
  'UPTIME_HOURLY_RETENTION_DAYS',
  'UPTIME_SAMPLES_RETENTION_HOURS',
  'WEBHOOK_ALLOW_PRIVATE',
  'WEBHOOK_INTERVAL_MS',
  'WEB_DIST',
];

describe('settings declared by their owners', () => {
  const owners = [{ name: 'kernel', config: KERNEL_CONFIG }, ...MODULES].flatMap((o: ConfigOwner) =>
    o.config ? [{ name: o.name, keys: Object.keys(o.config.shape) }] : [],
  );

  it('composes the kernel and every module into the same settings as before', () => {
    expect(Object.keys(ConfigSchema.shape).sort()).toEqual(SETTINGS);
  });

  it('declares each setting exactly once', () => {
    const declared = owners.flatMap((o) => o.keys.map((k) => `${k} (${o.name})`));
    expect(declared).toHaveLength(SETTINGS.length);
    expect(new Set(owners.flatMap((o) => o.keys)).size).toBe(SETTINGS.length);
  });

  it('refuses a setting declared twice, naming both owners', () => {
    const a = defineConfig({ shape: { SOME_SETTING: z.string().optional() } });
    const b = defineConfig({ shape: { SOME_SETTING: z.coerce.number().default(1) } });
    expect(() =>
      composeConfig([
        { name: 'kernel', config: KERNEL_CONFIG },
        { name: 'first', config: a },
        { name: 'second', config: b },
      ]),
    ).toThrow('Setting SOME_SETTING is declared twice: by first and by second');
    expect(() =>
      composeConfig([
        { name: 'kernel', config: KERNEL_CONFIG },
        { name: 'again', config: KERNEL_CONFIG },
      ]),
    ).toThrow('Setting NODE_ENV is declared twice: by kernel and by again');
  });

  it("applies the modules' defaults that depend on NODE_ENV", () => {
    const dev = loadConfig({ DATA_DIR: '/tmp/simdock-config-defaults' });
    expect([dev.PAYMENT_PROVIDER, dev.WEBHOOK_ALLOW_PRIVATE, dev.REQUIRE_ADMIN_2FA]).toEqual([
      'sandbox',
      true,
      false,
    ]);
    const prod = loadConfig({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(40) });
    expect([prod.PAYMENT_PROVIDER, prod.WEBHOOK_ALLOW_PRIVATE, prod.REQUIRE_ADMIN_2FA]).toEqual([
      'none',
      false,
      true,
    ]);
    expect(
      loadConfig({ DATA_DIR: '/tmp/simdock-config-defaults', REQUIRE_ADMIN_2FA: 'yes' }).REQUIRE_ADMIN_2FA,
    ).toBe(true);
  });

  it("lists the modules' rules across settings with every other problem", () => {
    let error: unknown;
    try {
      loadConfig({
        NODE_ENV: 'production',
        PORT: 'eighty',
        LOGIN_MAX_FAILURES_PER_USER: '5',
        PAYMENT_PROVIDER: 'sandbox',
        SMS_MAX_ATTEMPTS: '9',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/^PORT: /m);
    expect(problems).toMatch(/^SMS_MAX_ATTEMPTS: /m);
    expect(problems).toMatch(/^APP_SECRET: is required when NODE_ENV=production$/m);
    expect(problems).toMatch(/^LOGIN_MAX_FAILURES_PER_USER: renamed to LOGIN_MAX_FAILURES_PER_USER_IP/m);
    expect(problems).toMatch(/^PAYMENT_PROVIDER: the sandbox moves no real money/m);
    expect(() =>
      loadConfig({ DATA_DIR: '/tmp/simdock-config-defaults', PAYMENT_PROVIDER: 'nowpayments' }),
    ).toThrow(/NOWPAYMENTS_API_KEY: is required when PAYMENT_PROVIDER=nowpayments/);
  });
});

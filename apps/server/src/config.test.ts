import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { AddressLimit } from './address-limit.ts';

// The public catalogue is limited per client address (CATALOGUE_RATE_LIMIT_PER_MINUTE): a stranger
// calling it in a loop gets 429s that say when to come back, and other addresses are not affected.

describe('AddressLimit', () => {
  it('counts each address in its own one-minute window', () => {
    const limit = new AddressLimit(2);
    expect(limit.take('a', 0)).toBe(0);
    expect(limit.take('a', 1000)).toBe(0);
    expect(limit.take('a', 1500)).toBe(59);
    expect(limit.take('b', 1500)).toBe(0);
    expect(limit.take('a', 59_500)).toBe(1);
    expect(limit.take('a', 60_000)).toBe(0);
  });

  it('0 means no limit', () => {
    const limit = new AddressLimit(0);
    for (let i = 0; i < 1000; i++) expect(limit.take('a', i)).toBe(0);
  });
});

describe('the public catalogue over HTTP', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      env: { CATALOGUE_RATE_LIMIT_PER_MINUTE: '3', CATALOGUE_REFUSAL_DELAY_MS: '400', TRUST_PROXY: 'true' },
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('answers 429 with Retry-After past the share of an address, and serves another address', async () => {
    const call = (ip: string) =>
      fetch(`${s.url}/api/Service/getall`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      });
    for (let i = 0; i < 3; i++) expect((await call('203.0.113.7')).status).toBe(200);
    const asked = Date.now();
    const over = await call('203.0.113.7');
    expect(over.status).toBe(429);
    // A refusal waits CATALOGUE_REFUSAL_DELAY_MS: a caller looping on 429s is slowed to that pace.
    expect(Date.now() - asked).toBeGreaterThanOrEqual(400);
    expect(await over.json()).toMatchObject({ code: 0, error: 'too_many_requests' });
    const wait = Number(over.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect((await call('203.0.113.8')).status).toBe(200);
  });
});

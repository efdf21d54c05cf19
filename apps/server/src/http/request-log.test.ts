import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { requestLogLevel, SLOW_REQUEST_MS } from './request-log.ts';

describe('requestLogLevel', () => {
  it('keeps routine answers at debug and what a person looks for at info or above', () => {
    expect(requestLogLevel(200, 3, false)).toBe('debug');
    expect(requestLogLevel(304, 3, false)).toBe('debug');
    expect(requestLogLevel(401, 3, false)).toBe('info');
    expect(requestLogLevel(429, 3, false)).toBe('info');
    expect(requestLogLevel(503, 3, false)).toBe('warn');
    expect(requestLogLevel(200, SLOW_REQUEST_MS, false)).toBe('info');
    // A live stream lasts as long as the browser stays: not slow.
    expect(requestLogLevel(200, 60_000, true)).toBe('debug');
  });
});

describe('request lines at LOG_LEVEL=info', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { LOG_LEVEL: 'info' } });
  });
  afterAll(() => s.close());

  const requestLines = () => s.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request completed');

  it('a successful poll writes nothing; a refused call writes one line with its status', async () => {
    const token = await s.adminToken();
    const before = requestLines().length;
    for (let i = 0; i < 5; i++) expect((await s.api(endpoints.user.info, { token })).status).toBe(200);
    expect(requestLines()).toHaveLength(before);
    expect((await s.api(endpoints.user.info, { token: 'not-a-token' })).status).toBe(401);
    const lines = requestLines().slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, res: { statusCode: 401 }, req: { url: '/api/user/info' } });
    expect(lines[0].responseTime).toEqual(expect.any(Number));
  });
});

import { describe, expect, it } from 'vitest';
import { startRecorder } from './testkit.ts';

describe('startRecorder', () => {
  it('keeps every request exactly and answers as told', async () => {
    const rec = await startRecorder({ path: '/hook' });
    try {
      expect(rec.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hook$/);
      const bytes = Buffer.from([0xe2, 0x82, 0xac, 0x0a]);
      const first = await fetch(rec.url, { method: 'POST', body: bytes, headers: { 'x-sig': 'abc' } });
      expect(first.status).toBe(200);
      expect(await first.text()).toBe('');
      rec.answer = (r) => (r.n === 2 ? { status: 500, text: 'no' } : { json: { ok: true } });
      const second = await fetch(`${rec.url}/2`, { method: 'POST', body: '{}' });
      expect([second.status, await second.text()]).toEqual([500, 'no']);
      const third = await fetch(rec.url, { method: 'POST', body: '{}' });
      expect(await third.json()).toEqual({ ok: true });
      expect(rec.requests.map((r) => [r.n, r.path])).toEqual([
        [1, '/hook'],
        [2, '/hook/2'],
        [3, '/hook'],
      ]);
      expect(rec.requests[0]!.body.equals(bytes)).toBe(true);
      expect(rec.requests[0]!.raw).toBe('€\n');
      expect(rec.requests[0]!.headers['x-sig']).toBe('abc');
    } finally {
      await rec.close();
    }
  });

  it('waits for requests still to come, answers late when asked, and times out', async () => {
    const rec = await startRecorder({ answer: () => ({ delayMs: 30 }) });
    try {
      const waiting = rec.waitFor((r) => r.path === '/b', 2, 2000);
      const started = Date.now();
      await Promise.all([
        fetch(`${rec.url}/a`, { method: 'POST' }),
        fetch(`${rec.url}/b`, { method: 'POST' }),
        fetch(`${rec.url}/b`, { method: 'POST' }),
      ]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(25);
      expect((await waiting).map((r) => r.path)).toEqual(['/b', '/b']);
      await expect(rec.waitFor((r) => r.path === '/c', 1, 50)).rejects.toThrow(
        'timed out waiting for 1 request(s); got 0',
      );
    } finally {
      await rec.close();
    }
  });
});

import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, testConfig } from '../test/harness.ts';
import { inlineScriptHashes, registerSecurity } from './security.ts';

const THEME_SCRIPT = "\n      (() => { document.documentElement.classList.toggle('dark', true); })();\n    ";
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('base64');

let s: TestServer;
beforeAll(async () => {
  // A built web app of our own: an inline theme script and a bundled one.
  const dist = mkdtempSync(join(tmpdir(), 'simdock-web-'));
  writeFileSync(
    join(dist, 'index.html'),
    `<!doctype html><html><head><script>${THEME_SCRIPT}</script><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>`,
  );
  s = await startTestServer({ env: { WEB_DIST: dist } });
});
afterAll(async () => {
  await s.close();
});

const headersOf = async (path: string, init?: RequestInit) => (await fetch(`${s.url}${path}`, init)).headers;

describe('security headers', () => {
  it('hashes exactly the inline scripts of the served page', () => {
    expect(
      inlineScriptHashes(`<script>a</script><SCRIPT src="x.js"></SCRIPT><script type="x">b</script>`),
    ).toEqual([sha('a'), sha('b')]);
  });

  it('gives the web app a strict CSP that allows its own inline theme script', async () => {
    const h = await headersOf('/dashboard');
    const csp = h.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain(`script-src 'self' 'sha256-${sha(THEME_SCRIPT)}'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(h.get('x-frame-options')).toBe('DENY');
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    // Served over plain HTTP here: no HSTS.
    expect(h.get('strict-transport-security')).toBeNull();
  });

  it('sends the same headers on API routes and errors, and no CORS headers', async () => {
    for (const [path, init] of [
      ['/api/Service/getall', { method: 'POST' }],
      ['/api/nope', { method: 'POST', headers: { origin: 'https://evil.example' } }],
      ['/healthz', { headers: { origin: 'https://evil.example' } }],
    ] as const) {
      const h = await headersOf(path, init);
      expect(h.get('x-content-type-options'), path).toBe('nosniff');
      expect(h.get('x-frame-options'), path).toBe('DENY');
      expect(h.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(h.get('access-control-allow-origin'), path).toBeNull();
    }
    // API answers are data: a policy that allows nothing (the page's is longer and looser).
    const api = await headersOf('/api/Service/getall', { method: 'POST' });
    expect(api.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
    expect(api.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(api.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    // Headers only a document reads are left to documents.
    expect(api.get('cross-origin-opener-policy')).toBeNull();
    expect((await headersOf('/dashboard')).get('cross-origin-opener-policy')).toBe('same-origin');
    expect((await headersOf('/API/nope', { method: 'POST' })).get('content-security-policy')).toBe(
      "default-src 'none';frame-ancestors 'none'",
    );
    expect((await headersOf('/healthz')).get('content-security-policy')).toContain("default-src 'self'");
    // The live event stream writes its own head (the reply is hijacked): the same headers, too.
    const u = await s.createUser();
    const stream = new AbortController();
    const h = await headersOf('/api/Order/stream', {
      headers: { authorization: `Bearer ${u.token}` },
      signal: stream.signal,
    });
    stream.abort();
    expect(h.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('x-frame-options')).toBe('DENY');
    expect(h.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(h.get('x-request-id')).toBeTruthy();
    const preflight = await fetch(`${s.url}/api/Auth/login`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('gives Swagger UI a CSP it can render with, still unframeable', async () => {
    const res = await fetch(`${s.url}/swagger`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    // Swagger UI's page has no inline script, so 'self' covers every script it loads.
    expect(inlineScriptHashes(html)).toEqual([]);
  });

  it('adds HSTS when the public URL is HTTPS', async () => {
    // The test harness always serves plain HTTP, so the headers are checked on a bare app.
    const app = Fastify();
    await registerSecurity(app, testConfig({ PUBLIC_URL: 'https://simdock.example' }), tmpdir());
    app.get('/x', async () => 'ok');
    const res = await app.inject({ method: 'GET', url: '/x' });
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    await app.close();
  });
});

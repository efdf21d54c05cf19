import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';

// A built web app like apps/web/dist after `npm run build`: hashed assets and index.html, each with the
// .br and .gz copies the post-build step writes; favicon.svg without them. index.html carries the
// placeholder for each response's style nonce.
const pageWith = (nonce: string) =>
  `<!doctype html><html><head><meta property="csp-nonce" nonce="${nonce}" /><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>`;
const HTML = pageWith('__CSP_NONCE__');
const JS = `export const texts = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `text number ${i}`))};\n`;
const CSS = `${Array.from({ length: 100 }, (_, i) => `.c${i}{color:red;margin:${i}px}`).join('\n')}\n`;
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>';

let s: TestServer;
beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'simdock-web-'));
  mkdirSync(join(dist, 'assets'));
  const write = (name: string, text: string, compressed = true) => {
    writeFileSync(join(dist, name), text);
    if (!compressed) return;
    writeFileSync(join(dist, `${name}.br`), brotliCompressSync(Buffer.from(text)));
    writeFileSync(join(dist, `${name}.gz`), gzipSync(Buffer.from(text)));
  };
  write('index.html', HTML);
  write('assets/index-Ab12Cd34.js', JS);
  write('assets/index-Ef56Gh78.css', CSS);
  write('favicon.svg', SVG, false);
  s = await startTestServer({ env: { WEB_DIST: dist } });
});
afterAll(async () => {
  await s?.close();
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with node:http: the bytes as sent (fetch would decompress them). */
function raw(method: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${s.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const varyOf = (r: Raw) => String(r.headers.vary ?? '').toLowerCase();

describe('hashed assets', () => {
  it('are sent brotli-compressed to a browser that accepts br, cached for a year', async () => {
    const r = await raw('GET', '/assets/index-Ab12Cd34.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(r.body).toString()).toBe(JS);
    expect(r.body.length).toBeLessThan(Buffer.byteLength(JS) / 2);
    expect(r.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(r.headers['cache-control']).toBe(IMMUTABLE);
    expect(varyOf(r)).toContain('accept-encoding');
  });

  it('are sent gzip-compressed when only gzip is accepted, and as they are otherwise', async () => {
    const gz = await raw('GET', '/assets/index-Ef56Gh78.css', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(CSS);
    expect(gz.headers['content-type']).toMatch(/^text\/css/);
    expect(gz.headers['cache-control']).toBe(IMMUTABLE);

    const plain = await raw('GET', '/assets/index-Ef56Gh78.css', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(CSS);
    expect(plain.headers['cache-control']).toBe(IMMUTABLE);
    // Caches must keep the compressed and the plain answer apart.
    expect(varyOf(plain)).toContain('accept-encoding');
  });

  it('a missing asset is a JSON 404, never index.html and never cached for a year', async () => {
    for (const method of ['GET', 'HEAD']) {
      const r = await raw(method, '/assets/index-Missing1.js', { 'accept-encoding': 'br' });
      expect(r.status, method).toBe(404);
      expect(r.headers['content-type'], method).toMatch(/^application\/json/);
      expect(r.headers['cache-control'], method).not.toBe(IMMUTABLE);
    }
    const r = await raw('GET', '/assets/index-Missing1.js');
    expect(JSON.parse(r.body.toString())).toMatchObject({ code: 0, error: 'not_found' });
  });

  it('the compressed copies are not addressable by name', async () => {
    expect((await raw('GET', '/assets/index-Ab12Cd34.js.br')).status).toBe(404);
  });
});

describe('index.html and page routes', () => {
  /** The style nonce a response's CSP allows. */
  const styleNonce = (r: Raw) =>
    /style-src [^;]*'nonce-([A-Za-z0-9+/=]+)'/.exec(String(r.headers['content-security-policy']))?.[1];

  it('every page route gets index.html with its own CSP style nonce, revalidated on every load (no-cache)', async () => {
    const nonces = new Set<string>();
    for (const path of [
      '/',
      '/index.html',
      '/login',
      '/dashboard',
      '/details/00:11:22:33:44:55',
      '/no/such/page?x=1',
    ]) {
      const r = await raw('GET', path, { 'accept-encoding': 'br' });
      expect(r.status, path).toBe(200);
      expect(r.headers['content-type'], path).toMatch(/^text\/html/);
      expect(r.headers['cache-control'], path).toBe('no-cache');
      const nonce = styleNonce(r);
      expect(nonce, path).toMatch(/^[0-9a-f]{32}$/);
      // The page hands the UI exactly the nonce its CSP allows; no ETag, as no two answers are alike.
      expect(r.body.toString(), path).toBe(pageWith(nonce!));
      expect(r.headers.etag, path).toBeUndefined();
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(6);
  });

  it('unversioned files (favicon) are revalidated too, not cached for a year', async () => {
    const r = await raw('GET', '/favicon.svg', { 'accept-encoding': 'br' });
    expect(r.status).toBe(200);
    expect(r.body.toString()).toBe(SVG);
    expect(r.headers['cache-control']).toBe('no-cache');
  });

  it('API misses stay JSON 404s', async () => {
    const r = await raw('GET', '/api/nope');
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('HEAD is answered like GET', () => {
  const SAME = ['content-type', 'content-encoding', 'content-length', 'cache-control', 'vary', 'etag'];

  for (const [what, path, accept] of [
    ['a page route (SPA fallback)', '/dashboard', 'br'],
    ['index.html at /', '/', 'gzip'],
    ['a hashed asset', '/assets/index-Ab12Cd34.js', 'br'],
    ['a hashed asset, uncompressed', '/assets/index-Ab12Cd34.js', 'identity'],
    ['a public API GET route', '/api/meta', 'identity'],
    ['an admin API GET route without a token', '/api/Admin/orders', 'identity'],
  ] as const) {
    it(`${what}: same status and headers, no body`, async () => {
      const get = await raw('GET', path, { 'accept-encoding': accept });
      const head = await raw('HEAD', path, { 'accept-encoding': accept });
      expect(head.status).toBe(get.status);
      expect(head.body.length).toBe(0);
      for (const h of SAME) {
        // An API answer's length is the JSON's; its content (server time) may differ between calls.
        if (h === 'content-length' && path.startsWith('/api/meta')) continue;
        expect(head.headers[h], h).toEqual(get.headers[h]);
      }
      if (!path.startsWith('/api/')) expect(Number(head.headers['content-length'])).toBe(get.body.length);
    });
  }
});

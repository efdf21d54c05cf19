import { allEndpoints, endpointMethods } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';

/**
 * Routes and the contract's endpoint declarations are one list: every declaration is served, with
 * the access it declares, and every API route the server serves is declared (so the web's typed
 * `call` and the OpenAPI document cover the whole API).
 */
describe('endpoint declarations', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.close();
  });

  const key = (method: string, path: string) => `${method} ${path}`;
  const served = () => new Map(s.routes.map((r) => [key(r.method, r.url), r]));

  it('each declaration is served with its declared access', () => {
    const routes = served();
    const missing: string[] = [];
    for (const e of allEndpoints()) {
      for (const method of endpointMethods(e).filter((m) => m !== 'HEAD')) {
        // Routes outside /api, /stubs and /admin (the sandbox's pay page, /metrics) are not in the
        // access list: only that they are served is checked.
        if (!/^\/(api|stubs|admin)\//i.test(e.path)) {
          if (!s.app.hasRoute({ method, url: e.path })) missing.push(key(method, e.path));
          continue;
        }
        const r = routes.get(key(method, e.path));
        if (!r) {
          missing.push(key(method, e.path));
          continue;
        }
        expect(r.access, key(method, e.path)).toBe(e.access === 'device' ? 'public' : e.access);
        if (e.access === 'apikey') expect(r.keyIn, key(method, e.path)).toBe(e.keyIn ?? 'bearer');
      }
    }
    expect(missing).toEqual([]);
  });

  it('each API route is declared in the contract, once', () => {
    const declared = allEndpoints().flatMap((e) => endpointMethods(e).map((m) => key(m, e.path)));
    expect(new Set(declared).size).toBe(declared.length);
    const undeclared = [...served().keys()].filter((k) => !declared.includes(k));
    expect(undeclared).toEqual([]);
  });
});

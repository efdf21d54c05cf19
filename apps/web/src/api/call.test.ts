import { endpoint, endpoints } from '@simdock/contract';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { mockFetch } from '../test/utils.tsx';
import * as client from './client.ts';
import { ApiError, call, callText } from './client.ts';
import source from './client.ts?raw';
import { TOKEN_KEY } from './token.ts';

// Declarations of the same kinds as packages/contract/src/endpoints (kept here so the test does not
// depend on one real endpoint's fields).
const rename = endpoint({
  method: 'POST',
  path: '/api/test/rename',
  access: 'user',
  tag: 'test',
  body: z.object({ id: z.string(), name: z.string().max(8) }),
  response: { 200: z.object({ code: z.literal(1), name: z.string() }) },
});
const item = endpoint({
  method: 'GET',
  path: '/api/test/items/:itemId',
  access: 'public',
  tag: 'test',
  params: z.object({ itemId: z.string() }),
  query: z.object({ page: z.number().optional() }),
  response: { 200: z.object({ id: z.string() }) },
});
const info = endpoint({
  method: 'POST',
  path: '/api/test/info',
  access: 'user',
  tag: 'test',
  response: { 200: z.object({ n: z.number() }) },
});

describe('call(endpoint, …)', () => {
  it('sends the declared method and path with the token, and parses the answer with the declared schema', async () => {
    localStorage.setItem(TOKEN_KEY, 'tok');
    const fetch = mockFetch(() => ({ body: { code: 1, name: 'b' } }));
    const answer = await call(rename, { id: '1', name: 'b' });
    expect(answer).toEqual({ code: 1, name: 'b' });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/test/rename');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ id: '1', name: 'b' });
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer tok');
  });

  it('fills path parameters (encoded), adds the query, and sends no token to a public endpoint', async () => {
    localStorage.setItem(TOKEN_KEY, 'tok');
    const fetch = mockFetch(() => ({ body: { id: 'a/b' } }));
    await call(item, undefined, { params: { itemId: 'a/b' }, query: { page: 2 } });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/test/items/a%2Fb?page=2');
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
    expect((init.headers as Record<string, string>).authorization).toBeUndefined();
  });

  it('a POST without a declared body sends {} (the spec’s empty payloads)', async () => {
    const fetch = mockFetch(() => ({ body: { n: 1 } }));
    await call(info);
    expect((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body).toBe('{}');
  });

  it('an answer the declaration does not describe is an error, not data', async () => {
    mockFetch(() => ({ body: { n: 'one' } }));
    await expect(call(info)).rejects.toBeInstanceOf(ApiError);
  });

  it('callText answers the body as text', async () => {
    mockFetch(() => ({ body: 'a,b\n1,2\n' }));
    await expect(callText(info)).resolves.toContain('a,b');
  });

  it('types the body, the parameters and the answer from the declaration', () => {
    // Checked by tsc (npm run typecheck): each @ts-expect-error must be an error, or tsc fails.
    const typed = () => {
      // @ts-expect-error a renamed field no longer compiles
      void call(rename, { id: '1', nme: 'b' });
      // @ts-expect-error the body is required when declared
      void call(rename);
      // @ts-expect-error path parameters are required when declared
      void call(item);
      // @ts-expect-error an endpoint without a body takes none
      void call(info, { n: 1 });
      return call(rename, { id: '1', name: 'b' });
    };
    expectTypeOf(typed).returns.resolves.toEqualTypeOf<{ code: 1; name: string }>();
  });
});

describe("client.ts's doc examples", () => {
  // The examples in the client's comments are what a reader copies: each must call a function the
  // client exports with an endpoint the contract declares (one once named an area that never existed).
  const examples = source.split('\n').filter((line) => /^ \* {3}\S/.test(line));

  it('has examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
  });

  it.each(examples)('%s', (line) => {
    const refs = [...line.matchAll(/\bendpoints\.(\w+)\.(\w+)/g)];
    expect(refs.length).toBeGreaterThan(0);
    const areas = endpoints as unknown as Record<string, Record<string, unknown> | undefined>;
    for (const [ref, area, name] of refs) expect(areas[area ?? '']?.[name ?? ''], ref).toBeDefined();
    for (const [, fn] of line.matchAll(/\b(\w+)\(/g))
      expect(typeof (client as Record<string, unknown>)[fn ?? ''], `${fn} is exported by client.ts`).toBe(
        'function',
      );
  });
});

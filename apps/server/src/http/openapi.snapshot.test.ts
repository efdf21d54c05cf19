import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';

/**
 * The OpenAPI document is a promise to programs: paths, payloads, access and tags. Routes are
 * registered from the contract's endpoint declarations; this test holds the document they produce
 * to the committed one, so a refactor of how routes are declared cannot change it unnoticed.
 * After an intended API change, refresh it with `npx vitest run -u --project server-pglite openapi`.
 */
/** Object keys sorted, arrays kept in order: the document's meaning, not its key order. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  return value;
}

describe('the OpenAPI document', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it('is the committed document', async () => {
    const doc = await (await fetch(`${s.url}/swagger/json`)).json();
    await expect(`${JSON.stringify(sortKeys(doc), null, 2)}\n`).toMatchFileSnapshot(
      './__snapshots__/openapi.json',
    );
  });
});

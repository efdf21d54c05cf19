import { requestJson } from '@simdock/server/testing';

// biome-ignore lint/suspicious/noExplicitAny: the benches read API JSON loosely
export type Json = Record<string, any>;

/** POSTs JSON to `base` and returns the parsed body; a non-2xx answer stops the bench with it. */
export function jsonPoster(base: string) {
  return async (path: string, body: unknown, token?: string): Promise<Json> => {
    const res = await requestJson<Json>(base, 'POST', path, body, token);
    if (res.status < 200 || res.status >= 300)
      throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.body;
  };
}

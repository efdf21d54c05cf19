import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requestJson } from '@simdock/server/testing';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Node's arguments for a server process exactly as `npm run serve` starts it (the script in the root
 * package.json, node flags included), with the entry point made absolute; the benchmarks measure
 * that process.
 */
export function serveArgs(): string[] {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<
    string,
    string
  >;
  const [node, ...args] = scripts.serve!.split(/\s+/);
  if (node !== 'node') throw new Error(`npm run serve does not start node: ${scripts.serve}`);
  return args.map((a) => (a.endsWith('.ts') ? join(ROOT, a) : a));
}

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

// Test helpers: a tiny push receiver and an authenticated goip_* caller.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  contentType: string | undefined;
  // Pushes are arbitrary JSON; tests narrow by `type`.
  // biome-ignore lint/suspicious/noExplicitAny: test-side convenience for asserting on JSON
  body: any;
}

export class Receiver {
  readonly messages: Received[] = [];
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly server: Server,
    readonly base: string,
  ) {}

  static async start(): Promise<Receiver> {
    let self: Receiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // keep raw text
        }
        self?.messages.push({ path: req.url ?? '/', contentType: req.headers['content-type'], body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"code":200,"reason":"OK"}');
        for (const w of self?.waiters.splice(0) ?? []) w();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    self = new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return self;
  }

  url(path: string): string {
    return this.base + path;
  }

  of(path: string, type?: string): Received[] {
    return this.messages.filter((m) => m.path === path && (type === undefined || m.body?.type === type));
  }

  /** Resolve once `count` messages satisfy `pred` (existing ones included). */
  async waitFor(pred: (m: Received) => boolean, count = 1, timeoutMs = 3000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hits = this.messages.filter(pred);
      if (hits.length >= count) return hits;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${count} message(s); got ${hits.length}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

/** Call a goip_* endpoint with the default account; returns parsed JSON. */
export async function goip(
  base: string,
  page: string,
  params: Record<string, string | number> = {},
  init: { method?: string; body?: unknown; text?: string; auth?: [string, string] } = {},
  // biome-ignore lint/suspicious/noExplicitAny: replies are asserted field by field
): Promise<any> {
  const [username, password] = init.auth ?? ['root', 'root'];
  const qs = new URLSearchParams({
    username,
    password,
    ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
  });
  const res = await fetch(`${base}/${page}?${qs}`, {
    method: init.method ?? (init.body !== undefined || init.text !== undefined ? 'POST' : 'GET'),
    headers:
      init.text !== undefined ? { 'content-type': 'text/plain' } : { 'content-type': 'application/json' },
    body: init.text ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Test helpers: an IPN receiver that keeps raw bodies and headers and can answer slowly or with errors.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedIpn {
  raw: string;
  headers: IncomingHttpHeaders;
  path: string;
  /** n-th request received, from 1. */
  n: number;
}

export interface Answer {
  status?: number;
  delayMs?: number;
}

export class IpnReceiver {
  readonly received: ReceivedIpn[] = [];
  /** Decides each answer (default 200 at once). */
  answer: (ipn: ReceivedIpn) => Answer = () => ({});
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<IpnReceiver> {
    let self: IpnReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (!self) return;
        const ipn: ReceivedIpn = {
          raw: Buffer.concat(chunks).toString('utf8'),
          headers: req.headers,
          path: req.url ?? '/',
          n: self.received.length + 1,
        };
        self.received.push(ipn);
        for (const w of self.waiters.splice(0)) w();
        const a = self.answer(ipn);
        const reply = () => {
          if (res.destroyed) return;
          res.writeHead(a.status ?? 200, { 'content-type': 'text/plain' });
          res.end('ok');
        };
        if (a.delayMs) setTimeout(reply, a.delayMs);
        else reply();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    self = new IpnReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/ipn`);
    return self;
  }

  /** Resolves once `count` received IPNs satisfy `pred`. */
  async waitFor(pred: (r: ReceivedIpn) => boolean, count = 1, timeoutMs = 3000): Promise<ReceivedIpn[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hits = this.received.filter(pred);
      if (hits.length >= count) return hits;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${count} IPN(s); got ${hits.length}`);
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

/** Parsed JSON body of an IPN (tests narrow the fields they need). */
export function ipnJson(r: ReceivedIpn): Record<string, unknown> {
  return JSON.parse(r.raw) as Record<string, unknown>;
}

export async function api(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: Record<string, unknown>; text: string }> {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    signal: AbortSignal.timeout(5000),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON (HTML page)
  }
  return { status: res.status, json, text };
}

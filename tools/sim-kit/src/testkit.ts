// Test helpers (`@simdock/sim-kit/testkit`): a recorder that stands where a simulator posts its
// webhooks, pushes or IPNs. It keeps every request's path, headers and exact body bytes, answers
// as the test says, and lets a test wait for what it expects.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { closeServer, listen } from './http.ts';

export interface Recorded {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as UTF-8 text. */
  raw: string;
  /** The body exactly as it came. */
  body: Buffer;
  /** The n-th request recorded, from 1 (counting again after `requests` is emptied). */
  n: number;
}

export interface Answer {
  /** Default 200. */
  status?: number;
  /** Answer this much later (a slow receiver). */
  delayMs?: number;
  /** Default: an empty body. */
  json?: unknown;
  text?: string;
}

export interface Recorder {
  /** Where to post: the listener's root, plus the `path` it was started with. */
  readonly url: string;
  /** Every request, oldest first; a test may empty it. */
  readonly requests: Recorded[];
  /** Decides each answer; may be replaced while running. */
  answer: (r: Recorded) => Answer;
  /** Resolves once `count` recorded requests satisfy `pred` (those already here count). */
  waitFor(pred: (r: Recorded) => boolean, count?: number, timeoutMs?: number): Promise<Recorded[]>;
  close(): Promise<void>;
}

export async function startRecorder(
  opts: { path?: string; answer?: Recorder['answer'] } = {},
): Promise<Recorder> {
  const requests: Recorded[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const r: Recorded = {
        path: req.url ?? '/',
        headers: req.headers,
        raw: body.toString('utf8'),
        body,
        n: requests.length + 1,
      };
      requests.push(r);
      for (const w of waiters) w();
      const a = recorder.answer(r);
      const reply = () => {
        if (res.destroyed) return;
        if (a.json !== undefined) {
          res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(a.json));
        } else {
          res.writeHead(a.status ?? 200, a.text !== undefined ? { 'content-type': 'text/plain' } : {});
          res.end(a.text);
        }
      };
      if (a.delayMs) setTimeout(reply, a.delayMs);
      else reply();
    });
  });
  const port = await listen(server, 0, '127.0.0.1');
  const recorder: Recorder = {
    url: `http://127.0.0.1:${port}${opts.path ?? ''}`,
    requests,
    answer: opts.answer ?? (() => ({})),
    async waitFor(pred, count = 1, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hits = requests.filter(pred);
        if (hits.length >= count) return hits;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out waiting for ${count} request(s); got ${hits.length}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(t);
            waiters.delete(wake);
            resolve();
          };
          const t = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    close: () => closeServer(server),
  };
  return recorder;
}

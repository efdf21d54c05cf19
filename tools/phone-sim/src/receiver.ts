// A webhook receiver for tests: answers each POST with the next queued status (then 200) and keeps
// the exact bytes and headers of every request, so a signature can be checked on what arrived.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as UTF-8 text. */
  raw: string;
  /** The body exactly as it came. */
  body: Buffer;
}

export interface Receiver {
  url: string;
  got: Received[];
  close(): Promise<void>;
}

export async function startReceiver(statuses: number[] = []): Promise<Receiver> {
  const got: Received[] = [];
  const queue = [...statuses];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      got.push({ path: req.url ?? '/', headers: req.headers, raw: body.toString('utf8'), body });
      res.writeHead(queue.shift() ?? 200);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    got,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

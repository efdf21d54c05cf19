// Test helpers: an HttpClient for the android-sms-gateway npm client over fetch, and a webhook
// receiver that keeps the raw body and headers of every POST.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpClient } from 'android-sms-gateway';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}: ${body}`);
  }
}

async function call<T>(
  method: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new HttpError(res.status, text);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

export const fetchClient: HttpClient = {
  get: (url, headers) => call('GET', url, undefined, headers),
  post: (url, body, headers) => call('POST', url, body, headers),
  put: (url, body, headers) => call('PUT', url, body, headers),
  patch: (url, body, headers) => call('PATCH', url, body, headers),
  delete: (url, headers) => call('DELETE', url, undefined, headers),
};

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

/** Answers each POST with the next status of `statuses` (then 200), and records it. */
export async function startReceiver(statuses: number[] = []) {
  const got: Received[] = [];
  const queue = [...statuses];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({
        path: req.url ?? '/',
        headers: req.headers,
        raw: Buffer.concat(chunks).toString('utf8'),
      });
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

// The HTTP plumbing every simulator needs on node:http: listening on a port and closing again,
// reading a bounded body, parsing a JSON object and writing a reply.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a simulator's handler answers; `writeReply` puts it on the wire. */
export interface SimReply {
  status?: number;
  /** Sent as JSON (`application/json; charset=utf-8`). */
  json?: unknown;
  /** Sent as `text/plain; charset=utf-8` when there is no `json`, unless `headers` names a content-type. */
  text?: string;
  headers?: Record<string, string>;
  /** Runs once the reply has been written (e.g. a reboot that must not cut its own answer). */
  after?: () => void;
}

/** A body over the limit: the request is destroyed, the simulator answers 413 where it still can. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`body larger than ${limit} bytes`);
  }
}

/** The whole body as UTF-8 text; rejects with BodyTooLarge past `maxBytes`. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) {
        reject(new BodyTooLarge(maxBytes));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * The body, or undefined once `refusal` (413 by default) has been answered because the body is
 * larger than `maxBytes` or could not be read.
 */
export async function readBodyOrRefuse(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes: number,
  refusal: SimReply = { status: 413, text: 'Payload Too Large' },
): Promise<string | undefined> {
  try {
    return await readBody(req, maxBytes);
  } catch {
    writeReply(res, refusal);
    return undefined;
  }
}

export function writeReply(res: ServerResponse, r: SimReply): void {
  if (res.destroyed) return;
  if (r.after) res.once('finish', r.after);
  const headers: Record<string, string> = { ...r.headers };
  let body: string | undefined;
  if (r.json !== undefined) {
    headers['content-type'] = 'application/json; charset=utf-8';
    body = JSON.stringify(r.json);
  } else if (r.text !== undefined) {
    // A page of XML or HTML names its own type.
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'text/plain; charset=utf-8';
    }
    body = r.text;
  }
  res.writeHead(r.status ?? 200, headers);
  res.end(body);
}

/** A JSON object from `raw`; null for anything else (not JSON, an array, a scalar). */
export function parseJsonObject(raw: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Listens on `host:port` (0 = a free port) and resolves to the port bound. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Stops listening and cuts every open connection (a test's simulator must not keep the process up). */
export function closeServer(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** `http://host:port` as a client reaches it: a wildcard address becomes 127.0.0.1, IPv6 is bracketed. */
export function hostUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

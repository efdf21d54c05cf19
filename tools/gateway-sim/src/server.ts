// HTTP plumbing: listening, offline (stop listening / drop connections), slow and 500 faults,
// body reading and JSON replies. Routing of goip_* and /sim/* is done by the handlers passed in.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Faults } from './options.ts';

export interface SimRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
  headers: IncomingHttpHeaders;
}

export interface SimReply {
  status?: number;
  json?: unknown;
  text?: string;
  /** Runs once the reply has been written (e.g. a reboot that must not cut its own answer). */
  after?: () => void;
}

export type Handler = (req: SimRequest) => SimReply | Promise<SimReply>;

export interface ServerOptions {
  host: string;
  port: number;
  faults: () => Faults;
  isOffline: () => boolean;
  goip: Handler;
  /** When set, /sim/* is served, and offline keeps listening so the control API stays reachable. */
  control?: Handler;
}

const MAX_BODY = 8 * 1024 * 1024;

export class SimServer {
  private readonly server: Server;
  private boundPort: number;

  constructor(private readonly o: ServerOptions) {
    this.boundPort = o.port;
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      // Closing the listener is not instantaneous; anything that slips in while offline is cut.
      if (this.o.isOffline() && !this.o.control) socket.destroy();
    });
  }

  get port(): number {
    return this.boundPort;
  }

  get listening(): boolean {
    return this.server.listening;
  }

  listen(): Promise<void> {
    if (this.server.listening) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.server.once('error', onError);
      this.server.listen(this.boundPort, this.o.host, () => {
        this.server.off('error', onError);
        this.boundPort = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  /** Offline stops listening (connection refused) unless the control API must stay up. */
  async setOnline(online: boolean): Promise<void> {
    if (online) {
      await this.listen();
      return;
    }
    this.server.closeIdleConnections();
    if (this.o.control) return;
    await this.closeListener();
  }

  private closeListener(): Promise<void> {
    if (!this.server.listening) return Promise.resolve();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  close(): Promise<void> {
    return this.closeListener();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://device');
    const path = url.pathname;
    const isControl = this.o.control !== undefined && path.startsWith('/sim/');
    if (!isControl && this.o.isOffline()) {
      req.socket.destroy();
      return;
    }
    let body: string;
    try {
      body = await readBody(req);
    } catch {
      send(res, { status: 413, text: 'Payload Too Large' });
      return;
    }
    const request: SimRequest = {
      method: req.method ?? 'GET',
      path,
      query: url.searchParams,
      body,
      headers: req.headers,
    };
    try {
      if (isControl) {
        send(res, await this.o.control!(request));
        return;
      }
      if (!/^\/goip_\w+\.html$/.test(path)) {
        send(res, { status: 404, text: 'Not Found' });
        return;
      }
      const f = this.o.faults();
      if (f.slowMs > 0) await new Promise((r) => setTimeout(r, f.slowMs));
      if (this.o.isOffline()) {
        req.socket.destroy();
        return;
      }
      if (this.o.faults().http500) {
        send(res, { status: 500, text: 'Internal Server Error' });
        return;
      }
      send(res, await this.o.goip(request));
    } catch (err) {
      send(res, { status: 500, json: { code: 7, reason: 'Server Error', error: String(err) } });
    }
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, r: SimReply): void {
  if (res.destroyed) return;
  if (r.after) res.once('finish', r.after);
  if (r.json !== undefined) {
    res.writeHead(r.status ?? 200, { 'content-type': 'application/json;charset=utf-8' });
    res.end(JSON.stringify(r.json));
  } else {
    res.writeHead(r.status ?? 200, { 'content-type': 'text/plain;charset=utf-8' });
    res.end(r.text ?? '');
  }
}

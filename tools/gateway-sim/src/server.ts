// HTTP plumbing: listening, offline (stop listening / drop connections), slow and 500 faults,
// body reading and JSON replies. Routing of goip_* and /sim/* is done by the handlers passed in.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { closeServer, listen, readBodyOrRefuse, type SimReply, writeReply } from '@simdock/sim-kit';
import type { Faults } from './options.ts';

export interface SimRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
  headers: IncomingHttpHeaders;
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

  async listen(): Promise<void> {
    if (this.server.listening) return;
    this.boundPort = await listen(this.server, this.boundPort, this.o.host);
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
    return closeServer(this.server);
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
    const body = await readBodyOrRefuse(req, res, MAX_BODY);
    if (body === undefined) return;
    const request: SimRequest = {
      method: req.method ?? 'GET',
      path,
      query: url.searchParams,
      body,
      headers: req.headers,
    };
    try {
      if (isControl) {
        writeReply(res, await this.o.control!(request));
        return;
      }
      if (!/^\/goip_\w+\.html$/.test(path)) {
        writeReply(res, { status: 404, text: 'Not Found' });
        return;
      }
      const f = this.o.faults();
      if (f.slowMs > 0) await new Promise((r) => setTimeout(r, f.slowMs));
      if (this.o.isOffline()) {
        req.socket.destroy();
        return;
      }
      if (this.o.faults().http500) {
        writeReply(res, { status: 500, text: 'Internal Server Error' });
        return;
      }
      writeReply(res, await this.o.goip(request));
    } catch (err) {
      writeReply(res, { status: 500, json: { code: 7, reason: 'Server Error', error: String(err) } });
    }
  }
}

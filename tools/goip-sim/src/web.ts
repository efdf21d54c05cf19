// The box's own web pages (Basic auth): the one-shot send page and its status, the status page
// and the SMS inbox. The `/sim/*` control API is served beside them when asked for.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listen, readBodyOrRefuse, type SimReply, writeReply } from '@simdock/sim-kit';
import type { Box } from './box.ts';
import type { Line } from './line.ts';

export interface WebRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
}

const PAGES = '/default/en_US/';
const MAX_BODY = 64 * 1024;

export class Web {
  private readonly server: Server;
  private nextSendId = 1;
  port = 0;

  constructor(
    private readonly box: Box,
    private readonly control: ((req: WebRequest) => Promise<SimReply>) | null,
  ) {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async listen(): Promise<void> {
    this.port = await listen(this.server, this.box.o.httpPort, this.box.o.host);
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://box');
    const body = await readBodyOrRefuse(req, res, MAX_BODY);
    if (body === undefined) return;
    const request = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body };
    if (this.control && url.pathname.startsWith('/sim/')) {
      writeReply(res, await this.control(request));
      return;
    }
    writeReply(res, this.page(request, req.headers.authorization));
  }

  private page(req: WebRequest, authorization: string | undefined): SimReply {
    if (!req.path.startsWith(PAGES)) return { status: 404, text: 'Not Found' };
    const page = req.path.slice(PAGES.length);
    if (!['send.html', 'send_status.xml', 'status.xml', 'tools.html'].includes(page)) {
      return { status: 404, text: 'Not Found' };
    }
    if (!this.authorised(req.query, authorization)) {
      return {
        status: 401,
        text: 'Unauthorized',
        headers: { 'www-authenticate': 'Basic realm="Web Server"' },
      };
    }
    switch (page) {
      case 'send.html':
        return this.send(req.query);
      case 'send_status.xml':
        return xml(sendStatus(this.box.lines));
      case 'status.xml':
        return xml(status(this.box.lines));
      default:
        if (req.query.get('type') !== 'sms_inbox') return { status: 404, text: 'Not Found' };
        return {
          text: inbox(this.box.lines, this.box.o.clockOffsetMs),
          headers: { 'content-type': 'text/html; charset=utf-8' },
        };
    }
  }

  /** Basic auth, or the send pages' own `u=`/`p=`. */
  private authorised(query: URLSearchParams, authorization: string | undefined): boolean {
    const { httpUser, httpPassword } = this.box.o;
    if (query.get('u') === httpUser && query.get('p') === httpPassword) return true;
    const basic = /^Basic (.+)$/i.exec(authorization ?? '');
    if (!basic) return false;
    return Buffer.from(basic[1]!, 'base64').toString('utf8') === `${httpUser}:${httpPassword}`;
  }

  private send(q: URLSearchParams): SimReply {
    const n = Number(q.get('l') ?? '1');
    const line = Number.isInteger(n) ? this.box.lines[n - 1] : undefined;
    const number = q.get('n');
    const text = q.get('m');
    if (!line || !number || text === null) return { status: 400, text: 'ERROR, bad line, number or text' };
    const id = (this.nextSendId++).toString(16).padStart(8, '0');
    const sending = { id, status: 'STARTED' as const, error: '' };
    line.httpSend = sending;
    void this.box.modem.transmit(line, number, text, 'http').then((r) => {
      if (line.httpSend?.id !== id) return;
      line.httpSend = r.ok ? { id, status: 'DONE', error: '' } : { id, status: 'ERROR', error: r.error };
    });
    return { text: `Sending,L${line.n} Send SMS to:${number}; ID:${id}` };
  }
}

function xml(text: string): SimReply {
  return { text, headers: { 'content-type': 'text/xml; charset=gb2312' } };
}

/**
 * Real boxes send status.xml in gb2312. Every page here is ASCII, with anything beyond written as
 * a character reference, which reads the same in gb2312, UTF-8 or Latin-1.
 */
function esc(s: string): string {
  return s.replace(/[&<>"]|[^\x20-\x7e]/gu, (c) => `&#${c.codePointAt(0)};`);
}

function tags(fields: [string, string | number][]): string {
  return fields.map(([k, v]) => `<${k}>${esc(String(v))}</${k}>`).join('\n');
}

function sendStatus(lines: Line[]): string {
  const rows = lines.flatMap((l): [string, string][] => [
    [`id${l.n}`, l.httpSend?.id ?? ''],
    [`status${l.n}`, l.httpSend?.status ?? ''],
    [`error${l.n}`, l.httpSend?.error ?? ''],
  ]);
  return `<?xml version="1.0" encoding="gb2312"?>\n<send-sms-status>\n${tags(rows)}\n</send-sms-status>\n`;
}

function status(lines: Line[]): string {
  const rows = lines.flatMap((l): [string, string | number][] => {
    const p = `l${l.n}_`;
    const sim = l.sim;
    return [
      [`${p}gsm_sim`, sim.inserted ? 'Y' : 'N'],
      [`${p}gsm_status`, l.loggedIn ? 'LOGIN' : 'LOGOUT'],
      [`${p}gsm_signal`, sim.inserted ? sim.signal : 99],
      [`${p}gsm_cur_oper`, sim.inserted ? sim.carrier : ''],
      [`${p}gsm_imei`, sim.imei],
      [`${p}line_state`, l.busy ? 'BUSY' : 'IDLE'],
    ];
  });
  return `<?xml version="1.0" encoding="gb2312"?>\n<status>\n${tags(rows)}\n</status>\n`;
}

const two = (n: number) => String(n).padStart(2, '0');

/** The box's clock as the inbox shows it: no year (UTC here, a real box's local time). */
export function inboxTime(d: Date): string {
  return `${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/**
 * One script block per line, its messages as strings "MM-DD HH:MM:SS,<number>,<text>", newest
 * first, dated by the box's clock (`clockOffsetMs` from the real one).
 */
function inbox(lines: Line[], clockOffsetMs: number): string {
  const blocks = lines.map((l) => {
    // JSON strings are JavaScript strings; `<` escaped so a text cannot close the script.
    const list = [...l.inbox]
      .reverse()
      .map((m) =>
        JSON.stringify(`${inboxTime(new Date(m.at.getTime() + clockOffsetMs))},${m.from},${m.text}`).replace(
          /</g,
          '\\u003c',
        ),
      );
    return `<script type="text/javascript">\nsms= [${list.join(',')}];\nsms_row_insert(l${l.n}_sms_store, sms, 0, ${l.n});\n</script>`;
  });
  return `<html><head><title>SMS Inbox</title></head><body>\n${blocks.join('\n')}\n</body></html>\n`;
}

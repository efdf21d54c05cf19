// The Ejoin/Skyline "goip_*.html" HTTP API over fetch. The account travels in the query string
// (as the vendor examples do), so request URLs are never logged or put into error messages.
import {
  type ConnectResult,
  type DeviceStatus,
  type DriverTarget,
  type GatewayDriver,
  GatewayError,
  httpPush,
  ProtocolError,
  type PulledSms,
  type PushUrls,
  parsePushJson,
  type RawPush,
  type ReadPush,
  type SendTask,
  type TaskOutcome,
} from './driver.ts';
import { parseEjoinMms } from './ejoin.mms.ts';
import { sendResults, taskOutcome } from './ejoin.outcomes.ts';
import {
  INT32_MAX,
  isAuthFailure,
  leadingInt,
  normalizePort,
  parseDevStatus,
  parsePortEntry,
  parseRecvSms,
  parseReply,
  parseStatusReport,
  slotIndex,
} from './ejoin.parse.ts';
import { transportError } from './transport.ts';

/** The box's web/API server (http://host:port) and its account; the rest of DriverTarget is unused. */
export type EjoinTarget = Pick<DriverTarget, 'url' | 'username' | 'password'>;

/** Seconds between the box's dev-status pushes (the protocol's minimum). */
export const STATUS_PUSH_PERIOD = 60;

export interface EjoinOptions {
  /** Per request; a device that does not answer in time counts as offline. */
  timeoutMs?: number;
}

export const DEFAULT_GATEWAY_TIMEOUT_MS = 8000;

type Method = 'GET' | 'POST';

export class EjoinDriver implements GatewayDriver {
  private readonly timeoutMs: number;

  constructor(
    private readonly target: EjoinTarget,
    opts: EjoinOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_GATEWAY_TIMEOUT_MS;
  }

  readonly slotHint = 'Port must look like 1.01 (port 1, slot 1).';

  canonicalSlot(raw: string): string | undefined {
    return normalizePort(raw)?.port;
  }

  /** The box pushes to a URL per kind: /status, /sms, /mms, /report (docs/devices-ejoin.md#pushes). */
  readPush(raw: RawPush): ReadPush {
    const http = httpPush(raw);
    switch (http.channel) {
      case 'status': {
        const obj = asObject(bodyValue(raw));
        const isPort =
          obj.type === 'port-status' || (obj.type === undefined && 'port' in obj && !('mac' in obj));
        if (!isPort) return { push: { kind: 'status', status: parseDevStatus(obj) } };
        const { portNo: _p, slotNo: _s, ...sim } = parsePortEntry(obj);
        return { push: { kind: 'sim', sim } };
      }
      case 'sms':
        return { push: { kind: 'sms', items: parseRecvSms(bodyValue(raw), http.query) } };
      case 'mms':
        return { push: { kind: 'mms', mms: parseEjoinMms(http.headers, raw.body) } };
      case 'report':
        return {
          push: { kind: 'report', results: sendResults(parseStatusReport(asObject(bodyValue(raw))).reports) },
        };
      default:
        throw new ProtocolError('a multi-port box pushes to /status, /sms, /mms or /report');
    }
  }

  async connect(urls: PushUrls): Promise<ConnectResult> {
    // The subscription may not survive a reboot, so every Scan sends it again.
    await this.subscribeStatus(urls.status, STATUS_PUSH_PERIOD);
    try {
      await this.configureSmsUrls({ sms: urls.sms, report: urls.report });
      return { warnings: [] };
    } catch (err) {
      // Not every firmware takes the URLs by config command; each send request carries them too.
      if (!(err instanceof GatewayError)) throw err;
      return { warnings: [`the gateway did not take the SMS push URL: ${err.message}`] };
    }
  }

  async disconnect(): Promise<void> {
    await this.subscribeStatus('', 0);
  }

  async getStatus(): Promise<DeviceStatus> {
    const body = await this.call('GET', '/goip_get_status.html', { all_sims: '1' });
    if (isDevStatus(body)) return this.protocol(() => parseDevStatus(body));
    throw this.replyError(body);
  }

  async subscribeStatus(url: string, period: number): Promise<void> {
    // all_sims (Ejoin) / all_slots (Skyline): report every slot, not only the active ones.
    const body = await this.call('GET', '/goip_get_status.html', {
      url,
      period: String(period),
      all_sims: '1',
      all_slots: '1',
    });
    // Some firmware answers the subscription with a dev-status instead of {code:200}.
    if (!isDevStatus(body)) this.expectOk(body);
  }

  async configureSmsUrls(urls: { sms: string; report?: string }): Promise<void> {
    const pairs: [string, string][] = [['sms_url', urls.sms]];
    if (urls.report) pairs.push(['sr_url', urls.report]);
    await this.setParams(pairs);
  }

  async sendTasks(tasks: SendTask[], urls?: PushUrls): Promise<TaskOutcome[]> {
    const payload = {
      type: 'send-sms',
      task_num: tasks.length,
      tasks: tasks.map((t) => ({
        tid: t.tid,
        to: t.to,
        sms: t.sms,
        // A task names the port; the box sends from that port's active slot.
        ...(t.from ? { from: String(normalizePort(t.from)?.portNo ?? t.from) } : {}),
        ...(t.mms
          ? {
              smstype: 1,
              smstitle: t.mms.title,
              attachments: t.mms.attachments
                .map((a) => `${a.type}|${Buffer.from(a.data).toString('base64')}`)
                .join(';'),
            }
          : {}),
        chs: 'utf8',
        coding: 0,
        // Successes are not reported unless asked; the platform needs both outcomes.
        sdr: 1,
        fdr: 1,
        dr: 0,
      })),
      // Both URLs go along, so the box needs no setup to report and forward replies.
      ...(urls ? { sr_url: urls.report, sms_url: urls.sms } : {}),
    };
    const body = await this.call(
      'POST',
      '/goip_post_sms.html',
      {},
      JSON.stringify(payload),
      'application/json',
    );
    const reply = parseReply(body);
    if (!reply.ok && (!hasStatusList(body) || isAuthFailure(reply))) throw this.replyError(body);
    const list = hasStatusList(body) ? body.status : [];
    return list.map((s) => {
      const rec = (typeof s === 'object' && s !== null ? s : {}) as Record<string, unknown>;
      const status = typeof rec.status === 'string' ? rec.status : String(rec.status ?? '');
      return taskOutcome(
        leadingInt(rec.tid) ?? 0,
        leadingInt(status) ?? -1,
        status.replace(/^\s*-?\d+\s*/, '') || status,
      );
    });
  }

  async command(op: string, ports: string): Promise<void> {
    const body = await this.call(
      'POST',
      '/goip_send_cmd.html',
      {},
      JSON.stringify({ type: 'command', op, ports }),
      'application/json',
    );
    this.expectOk(body);
  }

  async setSimNumber(slot: string, number: string, device: { maxSlots: number | null }): Promise<void> {
    const ref = normalizePort(slot);
    if (!ref) throw new GatewayError('protocol', `not a port: ${slot}`);
    await this.setParams([
      [`sim_number(${slotIndex(ref.portNo, ref.slotNo, device.maxSlots ?? 1)})`, number],
    ]);
  }

  /** `goip_send_ussd.html`: the network's answer comes back in the reply's `resp`. */
  async ussd(slot: string, code: string): Promise<string> {
    const body = await this.call('GET', '/goip_send_ussd.html', { port: slot, ussd: code });
    this.expectOk(body);
    const resp = (body as Record<string, unknown>).resp;
    if (typeof resp !== 'string') throw new GatewayError('protocol', 'the USSD reply carries no text');
    return resp;
  }

  async pullSms(fromId: number, max = 0): Promise<PulledSms> {
    const body = await this.call('GET', '/goip_get_sms.html', {
      sms_id: String(Math.max(1, fromId)),
      sms_num: String(Math.max(0, max)),
      sms_del: '0',
    });
    this.expectOk(body);
    const rec = body as Record<string, unknown>;
    const items = Array.isArray(rec.data) ? this.protocol(() => parseRecvSms({ data: rec.data })) : [];
    const next = leadingInt(rec.next_sms ?? rec.next_id);
    return {
      ssrc: typeof rec.ssrc === 'string' || typeof rec.ssrc === 'number' ? String(rec.ssrc) : null,
      nextId: next !== undefined && next > 0 && next <= INT32_MAX ? next : Math.max(1, fromId),
      items,
    };
  }

  /** `op=set` config write: a text/plain body of `name=value` pairs. */
  private async setParams(pairs: [string, string][]): Promise<void> {
    const text = pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
    const body = await this.call('POST', '/goip_send_cmd.html', { op: 'set' }, text, 'text/plain');
    this.expectOk(body);
  }

  private expectOk(body: unknown): void {
    if (!parseReply(body).ok) throw this.replyError(body);
  }

  private replyError(body: unknown): GatewayError {
    const reply = parseReply(body);
    if (isAuthFailure(reply)) {
      return new GatewayError('auth', `the device refused the user name or password (${describe(reply)})`);
    }
    return new GatewayError('refused', `the device answered ${describe(reply)}`);
  }

  private protocol<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw new GatewayError('protocol', `unexpected reply: ${(err as Error).message}`);
    }
  }

  private async call(
    method: Method,
    path: string,
    params: Record<string, string>,
    body?: string,
    contentType?: string,
  ): Promise<unknown> {
    let url: URL;
    try {
      // Relative, so a base URL with a path prefix (behind a proxy) keeps it.
      url = new URL(path.replace(/^\//, ''), withSlash(this.target.url));
    } catch {
      throw new GatewayError('network', 'the gateway URL is not valid');
    }
    url.searchParams.set('username', this.target.username);
    url.searchParams.set('password', this.target.password);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: contentType ? { 'content-type': `${contentType};charset=utf-8` } : {},
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw this.transportError(err);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw this.transportError(err);
    }
    if (res.status === 401 || res.status === 403) {
      throw new GatewayError('auth', `the device refused the user name or password (HTTP ${res.status})`);
    }
    if (!res.ok) throw new GatewayError('http', `HTTP ${res.status} from the device`);
    try {
      return JSON.parse(text);
    } catch {
      throw new GatewayError('protocol', `the device did not answer with JSON (HTTP ${res.status})`);
    }
  }

  private transportError(err: unknown): GatewayError {
    return transportError(err, this.timeoutMs, this.target.password);
  }
}

/** A push body as the box meant it: JSON when it says so, otherwise its text (the "SMS to HTTP" forward). */
function bodyValue(raw: RawPush): unknown {
  const text = raw.body.toString('utf8');
  if (!/json/i.test(httpPush(raw).headers['content-type'] ?? '')) return text;
  return parsePushJson(text);
}

/** A body that must be one JSON object (some firmware sends it as text/plain). */
function asObject(body: unknown): Record<string, unknown> {
  let v = body;
  if (typeof v === 'string') v = parsePushJson(v);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new ProtocolError('the push body is not a JSON object');
  }
  return v as Record<string, unknown>;
}

function withSlash(base: string): string {
  return base.endsWith('/') ? base : `${base}/`;
}

function isDevStatus(body: unknown): body is Record<string, unknown> {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return b.type === 'dev-status' || (b.type === undefined && Array.isArray(b.status) && 'mac' in b);
}

function hasStatusList(body: unknown): body is { status: unknown[] } {
  return typeof body === 'object' && body !== null && Array.isArray((body as { status?: unknown }).status);
}

function describe(reply: { code: number | null; reason: string }): string {
  const code = reply.code === null ? 'no code' : `code ${reply.code}`;
  return reply.reason ? `${code} ${reply.reason}` : code;
}

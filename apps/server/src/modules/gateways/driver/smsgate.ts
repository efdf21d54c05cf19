// An Android phone running SMSGate, over its third-party REST API in one of three modes (the
// phone's own server, the public cloud, or a private server) and its signed webhooks
// (docs/devices-smsgate.md). Basic auth travels in a header; URLs and passwords never go into
// error messages.
import {
  type ConnectResult,
  type DeviceStatus,
  type DriverTarget,
  type GatewayDriver,
  GatewayError,
  httpPush,
  ProtocolError,
  type PushUrls,
  type RawPush,
  type ReadPush,
  type SendTask,
  type TaskOutcome,
} from './driver.ts';
import {
  answerText,
  apiBase,
  canonicalSlot,
  deviceStatus,
  EVENTS,
  healthVersion,
  type Mode,
  messageBody,
  parseDevices,
  parseMode,
  parseWebhook,
  pickDevice,
  sendOutcome,
  verifySignature,
  webhookId,
} from './smsgate.parse.ts';
import { transportError } from './transport.ts';

export interface SmsGateOptions {
  /** Per request; a phone (or server) that does not answer in time counts as offline. */
  timeoutMs?: number;
}

export const DEFAULT_PHONE_TIMEOUT_MS = 8000;

/** Sends in flight at once: the phone's server is small, and each send is one request. */
const SEND_CONCURRENCY = 4;

/** How often the phone says it is alive (system:ping), in seconds. */
const PING_INTERVAL_S = 60;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface Answer {
  status: number;
  text: string;
}

export class SmsGateDriver implements GatewayDriver {
  readonly slotHint = "SIM must be the phone's SIM slot: 1, 2 or 3.";
  private readonly timeoutMs: number;
  private readonly mode: Mode | null;

  constructor(
    private readonly target: DriverTarget,
    opts: SmsGateOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_PHONE_TIMEOUT_MS;
    this.mode = parseMode(target.mode);
  }

  canonicalSlot(raw: string): string | undefined {
    return canonicalSlot(raw);
  }

  readPush(raw: RawPush): ReadPush {
    const http = httpPush(raw);
    if (http.channel !== '') {
      throw new ProtocolError(`An SMSGate phone pushes to the gateway's URL, not to /${http.channel}`);
    }
    // Verified on the bytes as they came, before anything reads them.
    verifySignature(this.target.signingKey, http.headers, raw.body, raw.now);
    return parseWebhook(raw.body, this.target.externalId);
  }

  async getStatus(): Promise<DeviceStatus> {
    const res = await this.call('GET', this.modeOf() === 'local' ? '/device' : '/devices');
    this.expectAuthorised(res);
    if (res.status !== 200) {
      throw new GatewayError('http', `the phone's API answered ${answerText(res.status, res.text)}`);
    }
    let devices: ReturnType<typeof parseDevices>;
    try {
      devices = parseDevices(JSON.parse(res.text));
    } catch (err) {
      throw new GatewayError('protocol', `unexpected device list: ${(err as Error).message}`);
    }
    const device = pickDevice(devices, this.target.externalId);
    // Only the phone's own server reports the app; Cloud/Private health is the server's.
    const firmware = this.modeOf() === 'local' ? await this.appVersion() : null;
    return deviceStatus(device, firmware);
  }

  async connect(urls: PushUrls): Promise<ConnectResult> {
    const deviceId = this.target.externalId;
    // Every webhook is checked with the stored key: without one, each would be refused (401), so
    // the Scan fails and says what to set instead of "succeeding" into silence.
    const key = this.target.signingKey;
    if (!key) {
      throw new GatewayError(
        'refused',
        this.modeOf() === 'local'
          ? "No signing key is stored for this phone: save the gateway again (SimDock then sets a key on the phone at the next Scan), or enter the phone's own key (SMSGate app: Settings → Webhooks → Signing Key)"
          : "No signing key is stored for this phone: enter the phone's signing key (SMSGate app: Settings → Webhooks → Signing Key) in the gateway's Signing Key field, then Scan again",
      );
    }
    for (const event of EVENTS) {
      const res = await this.call('POST', '/webhooks', {
        id: webhookId(urls.base, event),
        url: urls.base,
        event,
        ...(deviceId ? { deviceId } : {}),
      });
      this.expectAuthorised(res);
      if (res.status < 200 || res.status >= 300) {
        throw new GatewayError(
          'refused',
          `The phone refused the ${event} webhook: ${answerText(res.status, res.text)}`,
        );
      }
    }
    const warnings: string[] = [];
    const ping = await this.patchSettings({ ping: { interval_seconds: PING_INTERVAL_S } });
    if (ping) warnings.push(`Could not set the phone's ping interval: ${ping}`);
    if (this.modeOf() === 'local') {
      // Only the phone's own API can set the key; in Cloud/Private the admin enters the phone's key.
      // A phone that keeps another key would sign every webhook with it: a failure, not a warning.
      const failed = await this.patchSettings({ webhooks: { signing_key: key } });
      if (failed) {
        throw new GatewayError(
          'refused',
          `The phone did not take SimDock's signing key (${failed}), so its webhooks would be refused: enter the phone's own key (SMSGate app: Settings → Webhooks → Signing Key) in the gateway's Signing Key field, then Scan again`,
        );
      }
    }
    return { warnings };
  }

  async disconnect(urls: PushUrls): Promise<void> {
    for (const event of EVENTS) {
      try {
        await this.call('DELETE', `/webhooks/${encodeURIComponent(webhookId(urls.base, event))}`);
      } catch {
        // Best effort: the gateway goes away whether or not the phone heard.
      }
    }
  }

  async sendTasks(tasks: SendTask[], _urls: PushUrls): Promise<TaskOutcome[]> {
    return inPool(tasks, SEND_CONCURRENCY, (t) => this.sendOne(t));
  }

  private async sendOne(task: SendTask): Promise<TaskOutcome> {
    if (task.mms) {
      return {
        tid: task.tid,
        outcome: 'recipient_refused',
        deviceText: 'This phone cannot send MMS (SMSGate sends SMS only).',
      };
    }
    const body = messageBody(task, this.target.externalId);
    if (!body) {
      return { tid: task.tid, outcome: 'sim_cannot_send', deviceText: this.slotHint };
    }
    const res = await this.call('POST', '/messages', body, { skipPhoneValidation: 'true' });
    const outcome = sendOutcome(res.status);
    const deviceText = answerText(res.status, res.text);
    if (outcome === 'auth') throw this.authError(res.status);
    if (outcome === 'unexpected') {
      throw new GatewayError('http', `the phone's API answered ${deviceText} to a send`);
    }
    return { tid: task.tid, outcome, deviceText };
  }

  /** Best effort PATCH /settings: the failure's text, or null when it worked. */
  private async patchSettings(body: Record<string, unknown>): Promise<string | null> {
    try {
      const res = await this.call('PATCH', '/settings', body);
      return res.status >= 200 && res.status < 300 ? null : answerText(res.status, res.text);
    } catch (err) {
      if (err instanceof GatewayError) return err.message;
      throw err;
    }
  }

  /** The app version from the phone's health answer (no auth; 500 still carries it); best effort. */
  private async appVersion(): Promise<string | null> {
    try {
      const res = await this.call('GET', '/health');
      return healthVersion(JSON.parse(res.text));
    } catch {
      return null;
    }
  }

  private expectAuthorised(res: Answer): void {
    if (res.status === 401 || res.status === 403) throw this.authError(res.status);
  }

  private authError(status: number): GatewayError {
    return new GatewayError(
      'auth',
      status === 403
        ? 'the phone refused this account the call (HTTP 403)'
        : 'the phone refused the user name or password (HTTP 401)',
    );
  }

  private modeOf(): Mode {
    if (!this.mode) throw new GatewayError('refused', 'The SMSGate mode must be local, cloud or private.');
    return this.mode;
  }

  private async call(
    method: Method,
    path: string,
    body?: unknown,
    query: Record<string, string> = {},
  ): Promise<Answer> {
    const base = apiBase(this.target.url, this.modeOf());
    if (!base) throw new GatewayError('network', 'the gateway URL is not valid');
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const password = this.target.password;
    const auth = Buffer.from(`${this.target.username}:${password}`, 'utf8').toString('base64');
    try {
      const res = await fetch(url, {
        method,
        headers: {
          authorization: `Basic ${auth}`,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      return { status: res.status, text: await res.text() };
    } catch (err) {
      throw transportError(err, this.timeoutMs, password);
    }
  }
}

/**
 * `fn` over every item, at most `n` at once, results in order. The first failure is thrown once
 * the calls already under way have ended (no new ones start after it).
 */
async function inPool<T, R>(items: T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failure: { err: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i] as T);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  if (failure) throw failure.err;
  return out;
}

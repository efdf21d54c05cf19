// Test helpers: a push receiver (over sim-kit's recorder) and an authenticated goip_* caller.
import { type Recorded, type Recorder, startRecorder } from '@simdock/sim-kit/testkit';

export interface Received {
  path: string;
  contentType: string | undefined;
  // Pushes are arbitrary JSON; tests narrow by `type`.
  // biome-ignore lint/suspicious/noExplicitAny: test-side convenience for asserting on JSON
  body: any;
}

/** A push's body as JSON where it is JSON, else the raw text. */
function received(r: Recorded): Received {
  let body: unknown = r.raw;
  try {
    body = JSON.parse(r.raw);
  } catch {
    // keep raw text
  }
  return { path: r.path, contentType: r.headers['content-type'], body };
}

/** Answers every push as a server does (`{"code":200,"reason":"OK"}`) and keeps it. */
export class Receiver {
  private constructor(private readonly rec: Recorder) {}

  static async start(): Promise<Receiver> {
    return new Receiver(await startRecorder({ answer: () => ({ json: { code: 200, reason: 'OK' } }) }));
  }

  get base(): string {
    return this.rec.url;
  }

  get messages(): Received[] {
    return this.rec.requests.map(received);
  }

  url(path: string): string {
    return this.base + path;
  }

  of(path: string, type?: string): Received[] {
    return this.messages.filter((m) => m.path === path && (type === undefined || m.body?.type === type));
  }

  /** Resolve once `count` messages satisfy `pred` (existing ones included). */
  async waitFor(pred: (m: Received) => boolean, count = 1, timeoutMs = 3000): Promise<Received[]> {
    return (await this.rec.waitFor((r) => pred(received(r)), count, timeoutMs)).map(received);
  }

  close(): Promise<void> {
    return this.rec.close();
  }
}

/** Call a goip_* endpoint with the default account; returns parsed JSON. */
export async function goip(
  base: string,
  page: string,
  params: Record<string, string | number> = {},
  init: { method?: string; body?: unknown; text?: string; auth?: [string, string] } = {},
  // biome-ignore lint/suspicious/noExplicitAny: replies are asserted field by field
): Promise<any> {
  const [username, password] = init.auth ?? ['root', 'root'];
  const qs = new URLSearchParams({
    username,
    password,
    ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
  });
  const res = await fetch(`${base}/${page}?${qs}`, {
    method: init.method ?? (init.body !== undefined || init.text !== undefined ? 'POST' : 'GET'),
    headers:
      init.text !== undefined ? { 'content-type': 'text/plain' } : { 'content-type': 'application/json' },
    body: init.text ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Test helpers: an IPN receiver (sim-kit's recorder: raw bodies and headers, answers that may be
// slow or errors) and a JSON caller of the API.
import { type Recorded, type Recorder, startRecorder } from '@simdock/sim-kit/testkit';

export type ReceivedIpn = Recorded;
export type IpnReceiver = Recorder;

/** A receiver at `<url>/ipn`, answering 200 at once until the test sets `answer`. */
export function startIpnReceiver(): Promise<IpnReceiver> {
  return startRecorder({ path: '/ipn', answer: () => ({ text: 'ok' }) });
}

/** Parsed JSON body of an IPN (tests narrow the fields they need). */
export function ipnJson(r: ReceivedIpn): Record<string, unknown> {
  return JSON.parse(r.raw) as Record<string, unknown>;
}

export async function api(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: Record<string, unknown>; text: string }> {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    signal: AbortSignal.timeout(5000),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON (HTML page)
  }
  return { status: res.status, json, text };
}

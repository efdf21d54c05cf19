// Test helpers for SMSGate clients (`@simdock/phone-sim/testkit`): the published
// android-sms-gateway npm client's class, an HttpClient for it over fetch, and (from receiver.ts) a
// webhook receiver that keeps the raw body and headers of every POST.

import type { HttpClient } from 'android-sms-gateway';
import * as sdk from 'android-sms-gateway';

// The package ships ESM without "type": "module": Node loads it as ESM (default = the class) while
// TypeScript types it as CommonJS (default = the module). Take the class under either reading.
type ClientClass = typeof sdk.default.default;
const loaded: unknown = sdk.default;
/** The android-sms-gateway client class: `new SmsGateClient(login, password, fetchClient, baseUrl)`. */
export const SmsGateClient = (
  typeof loaded === 'function' ? loaded : (loaded as { default: unknown }).default
) as ClientClass;
export type SmsGateClient = InstanceType<ClientClass>;
export const { ProcessState, WebHookEventType } = sdk;

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

export { type Received, type Receiver, startReceiver } from './receiver.ts';

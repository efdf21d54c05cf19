// Test helpers: an HttpClient for the android-sms-gateway npm client over fetch, and (from
// receiver.ts) a webhook receiver that keeps the raw body and headers of every POST.
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

export { type Received, type Receiver, startReceiver } from './receiver.ts';

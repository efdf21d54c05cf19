import {
  type EndpointBody,
  type EndpointDeclaration,
  type EndpointParams,
  type EndpointQuery,
  type EndpointResult,
  ErrorBody,
  type ErrorCode,
  endpointMethods,
  endpointPath,
} from '@simdock/contract';
import type { z } from 'zod';
import { currentLanguage, translate } from '../i18n/index.tsx';
import { serverErrorText } from '../i18n/server-messages.ts';
import { promptReauth, reauthHeaders } from './reauth.ts';
import { clearToken, getToken } from './token.ts';

/**
 * The one typed API client. Pages call the contract's endpoint declarations through `call` (below):
 * the body, the query and the answer are typed from the declaration, and the answer is parsed with its
 * zod schema, so a page only ever sees well-typed data.
 *
 *   const info = await call(endpoints.user.info);
 *   const ok = requireCode1(await call(endpoints.service.delete, { service: id }));
 *   const csv = await callText(endpoints.history.exportMsg, { params });
 *
 * Failures throw an ApiError whose message is what the user should read
 * (docs/product.md#errors-and-messages): the server's `msg` in the user's language (`shownMessage`), else the
 * transport's message, else 'Unexpected error occurred'. A 401 on an authenticated call clears the session
 * (the guards then send the user to /login).
 */
export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when the request never got an answer. */
    readonly status: number,
    readonly kind?: ErrorCode | (string & {}),
    /** The input the server blamed, when it named one. */
    readonly field?: string,
    /**
     * The server's own `msg` as it sent it (English), when it sent one; `message` is that text as the
     * user reads it. Pages with their own fallback text test this and show `message`.
     */
    readonly serverMessage?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The server's `msg` as the user reads it: a contract rule or messaging text in the current language,
 * else (not in English) the catalogue's text of its error code, else as sent (i18n/server-messages.ts).
 */
function shownMessage(msg: string, code?: string): string {
  return serverErrorText({ msg, code }, currentLanguage(), translate);
}

export interface RequestOptions {
  /** Send the bearer token (default true). Public calls (login, register, service list) pass false. */
  auth?: boolean;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
  /** Extra request headers (e.g. Idempotency-Key). */
  headers?: Record<string, string>;
}

function withQuery(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

function serverMessage(body: unknown): string | undefined {
  const parsed = ErrorBody.safeParse(body);
  if (parsed.success) return parsed.data.msg || undefined;
  if (body && typeof body === 'object' && 'msg' in body && typeof body.msg === 'string' && body.msg)
    return body.msg;
  return undefined;
}

/**
 * Sends one request; a call refused with `reauth_required` asks for a fresh re-authentication (the
 * shared dialog) and is sent once more with its proof. A cancelled dialog leaves the refusal.
 */
async function send(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body: unknown,
  opts: RequestOptions,
  asBlob = false,
): Promise<{ res: Response; text: string; json: unknown; blob?: Blob }> {
  try {
    return await sendOnce(method, path, body, opts, asBlob);
  } catch (err) {
    if (!(err instanceof ApiError) || err.kind !== 'reauth_required' || !(await promptReauth())) throw err;
    return sendOnce(method, path, body, opts, asBlob);
  }
}

/** Sends one request; a failure throws an ApiError. Answers the status and the body (text and JSON). */
async function sendOnce(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body: unknown,
  opts: RequestOptions,
  /** Answer a successful body as a Blob (media) instead of reading it as text. */
  asBlob = false,
): Promise<{ res: Response; text: string; json: unknown; blob?: Blob }> {
  const auth = opts.auth ?? true;
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  const token = auth ? getToken() : null;
  if (token) Object.assign(headers, { authorization: `Bearer ${token}` }, reauthHeaders());
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !isForm) headers['content-type'] = 'application/json';

  let res: Response;
  try {
    res = await fetch(withQuery(path, opts.query), {
      method,
      headers,
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
      signal: opts.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    // The request never got an answer ("Failed to fetch"): say so in plain words, not the browser's.
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    throw new ApiError(translate(offline ? 'errors.offline' : 'errors.network'), 0);
  }

  if (asBlob && res.ok) return { res, text: '', json: undefined, blob: await res.blob() };

  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }

  if (!res.ok) {
    if (res.status === 401 && auth && token) clearToken();
    const parsed = ErrorBody.safeParse(json);
    const fromServer = serverMessage(json);
    // A proxy's or crashed server's answer without our error body: plain words instead of "Bad Gateway".
    const fallback =
      res.status >= 500
        ? translate(res.status === 504 ? 'errors.timeout' : 'errors.server')
        : res.statusText || translate('errors.unexpected');
    const code = parsed.success ? parsed.data.error : undefined;
    throw new ApiError(
      fromServer === undefined ? fallback : shownMessage(fromServer, code),
      res.status,
      code,
      parsed.success ? parsed.data.field : undefined,
      fromServer,
    );
  }
  return { res, text, json };
}

export async function apiRequest<S extends z.ZodType>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  schema: S,
  body?: unknown,
  opts: RequestOptions = {},
): Promise<z.output<S>> {
  const { res, json } = await send(method, path, body, opts);
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    // The server answered something the contract does not describe: a bug, not a user error.
    console.error(`Unexpected answer from ${method} ${path}`, parsed.error.issues);
    const fromServer = serverMessage(json);
    throw new ApiError(
      fromServer === undefined ? translate('errors.unexpected') : shownMessage(fromServer),
      res.status,
      undefined,
      undefined,
      fromServer,
    );
  }
  return parsed.data;
}

export function apiPost<S extends z.ZodType>(
  path: string,
  body: unknown,
  schema: S,
  opts?: RequestOptions,
): Promise<z.output<S>> {
  return apiRequest('POST', path, schema, body ?? {}, opts);
}

/**
 * For calls whose success needs `code: 1` (docs/product.md#errors-and-messages): returns the answer, or
 * throws an ApiError with the server's msg, else 'API request failed with unknown error'. Parse such answers
 * with a schema that accepts both codes (e.g. ChangePassResponse), so a `code: 0` answer reaches this check.
 */
export function requireCode1<T extends { code?: unknown; msg?: unknown }>(res: T): T {
  if (res.code === 1) return res;
  const msg = typeof res.msg === 'string' && res.msg ? res.msg : undefined;
  throw new ApiError(
    msg === undefined ? translate('errors.unknownApi') : shownMessage(msg),
    200,
    undefined,
    undefined,
    msg,
  );
}

/** The text to show for any thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  return translate('errors.unexpected');
}

/** Options of `call`: the query and path parameters typed from the declaration, and the transport's. */
export type CallOptions<E extends EndpointDeclaration> = Omit<RequestOptions, 'query'> & {
  query?: EndpointQuery<E>;
} & (E['params'] extends z.ZodType ? { params: EndpointParams<E> } : { params?: undefined });

/** `call`'s arguments after the endpoint: its body (when it declares one) and the options. */
export type CallArgs<E extends EndpointDeclaration> = [
  ...(E['body'] extends z.ZodType ? [body: EndpointBody<E>] : [body?: undefined]),
  ...(E['params'] extends z.ZodType ? [opts: CallOptions<E>] : [opts?: CallOptions<E>]),
];

function request<E extends EndpointDeclaration>(
  endpoint: E,
  body: unknown,
  opts: CallOptions<E> | undefined,
): { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; body: unknown; opts: RequestOptions } {
  const method = endpointMethods(endpoint)[0] as 'GET' | 'POST' | 'PUT' | 'DELETE';
  const { params, query, ...rest } = opts ?? {};
  return {
    method,
    path: endpointPath(endpoint, params ?? undefined),
    // A POST whose declaration has no body still sends `{}`: the spec's calls with an empty payload.
    body: method === 'GET' || method === 'DELETE' ? undefined : (body ?? {}),
    opts: {
      auth: endpoint.access !== 'public',
      ...rest,
      query: query as RequestOptions['query'],
    },
  };
}

/**
 * Calls a declared endpoint (packages/contract/src/endpoints): the body and the answer are typed
 * from its declaration, and the answer is parsed with its `200` schema.
 *
 *   const info = await call(endpoints.user.info);
 *   const page = await call(endpoints.payment.history, undefined, { query: { page: 2 } });
 */
export function call<E extends EndpointDeclaration>(
  endpoint: E,
  ...[body, opts]: CallArgs<E>
): Promise<EndpointResult<E>> {
  const r = request(endpoint, body, opts as CallOptions<E> | undefined);
  const schema = endpoint.response?.[200] as z.ZodType<EndpointResult<E>> | undefined;
  // A JSON call needs the declared answer to parse; files go through callText/callBlob.
  if (!schema) throw new Error(`${endpoint.path} declares no 200 answer: use callText or callBlob`);
  return apiRequest(r.method, r.path, schema, r.body, r.opts);
}

/** Calls a declared endpoint whose answer is a file (a CSV export): its text. */
export async function callText<E extends EndpointDeclaration>(
  endpoint: E,
  ...[body, opts]: CallArgs<E>
): Promise<string> {
  const r = request(endpoint, body, opts as CallOptions<E> | undefined);
  return (await send(r.method, r.path, r.body, { ...r.opts, headers: { accept: '*/*', ...r.opts.headers } }))
    .text;
}

/**
 * Calls a declared endpoint whose answer is a file to show (chat media): a Blob, fetched with the
 * bearer token (an <img src> cannot send it). Show it through URL.createObjectURL and revoke the URL
 * when it is no longer shown.
 *
 *   const file = await callBlob(endpoints.livechat.media, undefined, { params: { fileName } });
 */
export async function callBlob<E extends EndpointDeclaration>(
  endpoint: E,
  ...[body, opts]: CallArgs<E>
): Promise<Blob> {
  const r = request(endpoint, body, opts as CallOptions<E> | undefined);
  const { blob } = await send(
    r.method,
    r.path,
    r.body,
    { ...r.opts, headers: { accept: '*/*', ...r.opts.headers } },
    true,
  );
  return blob ?? new Blob();
}

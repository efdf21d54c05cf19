export interface ApiResult<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/** One JSON call to a running server, as a client would make it; a non-JSON answer is kept as text. */
export async function requestJson<T>(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<ApiResult<T>> {
  const res = await fetch(baseUrl + path, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (an HTML page, an empty body): the text itself.
  }
  return { status: res.status, body: parsed as T };
}

import { ChangePassResponse, UserInfo } from '@simdock/contract';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/utils.tsx';
import { ApiError, apiPost, apiRequest, errorMessage, requireCode1 } from './client.ts';
import { TOKEN_KEY } from './token.ts';

const user = {
  username: 'ann',
  email: 'a@b.co',
  createdTime: 'x',
  apiKey: null,
  balance: 1,
  roles: ['User'],
};

describe('api client (docs/product.md#errors-and-messages)', () => {
  it('sends the bearer token and parses the answer with the contract schema', async () => {
    localStorage.setItem(TOKEN_KEY, 'tok');
    const fetch = mockFetch(() => ({ body: user }));
    await expect(apiPost('/api/user/info', {}, UserInfo)).resolves.toEqual(user);
    const init = fetch.mock.calls[0]![1] as RequestInit;
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer tok');
    expect(init.method).toBe('POST');
  });

  it('public calls carry no token; GET adds the query', async () => {
    localStorage.setItem(TOKEN_KEY, 'tok');
    const fetch = mockFetch(() => ({ body: user }));
    await apiRequest('GET', '/api/x', UserInfo, undefined, {
      auth: false,
      query: { page: 2, status: undefined, q: 'a b' },
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/x?page=2&q=a+b');
    expect((init.headers as Record<string, string>).authorization).toBeUndefined();
  });

  it("surfaces the server's msg", async () => {
    mockFetch(() => ({ status: 400, body: { code: 0, error: 'bad_input', msg: 'Nope.', field: 'oldPass' } }));
    const err = await apiPost('/api/user/changepass', {}, ChangePassResponse).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      message: 'Nope.',
      status: 400,
      kind: 'bad_input',
      field: 'oldPass',
      serverMessage: 'Nope.',
    });
  });

  it('else plain words for a lost connection or a failing server, else Unexpected error occurred', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(apiPost('/api/a', {}, UserInfo)).rejects.toMatchObject({
      message: 'No connection to the server. Check your connection and try again.',
      status: 0,
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>', { status: 502 })),
    );
    await expect(apiPost('/api/a', {}, UserInfo)).rejects.toMatchObject({
      message: 'The server had a problem answering. Try again in a moment.',
      status: 502,
    });
    mockFetch(() => ({ body: { unexpected: true } }));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(apiPost('/api/a', {}, UserInfo)).rejects.toMatchObject({
      message: 'Unexpected error occurred',
    });
    expect(errorMessage(undefined)).toBe('Unexpected error occurred');
  });

  it('a 401 on an authenticated call clears the session; on a public call it does not', async () => {
    mockFetch(() => ({ status: 401, body: { code: 0, error: 'unauthorized', msg: 'Sign in.' } }));
    localStorage.setItem(TOKEN_KEY, 'tok');
    await apiPost('/api/Auth/login', {}, UserInfo, { auth: false }).catch(() => {});
    expect(localStorage.getItem(TOKEN_KEY)).toBe('tok');
    await apiPost('/api/user/info', {}, UserInfo).catch(() => {});
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('requireCode1 passes code 1 and surfaces msg or the unknown-error text', () => {
    expect(requireCode1({ code: 1, msg: 'ok' })).toEqual({ code: 1, msg: 'ok' });
    expect(() => requireCode1({ code: 0, msg: 'Wrong.' })).toThrow('Wrong.');
    expect(() => requireCode1({ code: 0, msg: '' })).toThrow('API request failed with unknown error');
  });
});

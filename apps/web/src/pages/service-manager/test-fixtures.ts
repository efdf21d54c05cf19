import type { Service } from '@simdock/contract';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, userInfoFor } from '../../test/utils.tsx';

// The Service Manager tests' shared setup (ServiceManagerPage.test.tsx, SpentNumbersDialog.test.tsx).

export const tg: Service = {
  id: '6f1c1e0e-2b8e-4c53-9d59-3c1c2d1e0a01',
  name: 'Telegram',
  code: 'tg',
  description: 'Login codes',
  price: 0.5,
  available: 3,
  rentTimeMinutes: 15,
  isRepeatable: false,
  stock: 40,
  pattern: '(\\d{5})',
  textContains: 'telegram',
  isEnable: true,
};

export type Answer = { status?: number; body: unknown };

/**
 * Signs in the admin 'root' and answers the calls: `routes` first (a test's own answers), then the
 * user's info and the service list, else a 404.
 */
export function serveAdmin(services: Service[], routes: Record<string, Answer> = {}) {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('root', 'Admin9')));
  return mockFetch((path) => {
    if (routes[path]) return routes[path];
    if (path === '/api/user/info') return { body: userInfoFor('root', ['Admin9']) };
    if (path === '/api/Service/getall') return { body: { code: 1, services } };
    return { status: 404, body: { code: 0, error: 'not_found', msg: 'no' } };
  });
}

/** The JSON bodies sent to `path`. */
export const calls = (fetch: ReturnType<typeof mockFetch>, path: string): unknown[] =>
  fetch.mock.calls.filter(([p]) => p === path).map(([, init]) => JSON.parse(String(init?.body)));

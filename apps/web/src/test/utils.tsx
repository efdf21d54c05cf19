import type { Order, Role, UserInfo } from '@simdock/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { AppRouterProvider, routes } from '../app/router.tsx';
import { I18nProvider, type Language } from '../i18n/index.tsx';
import { createQueryClient } from '../lib/queryClient.ts';
import { ThemeProvider } from '../lib/theme.tsx';

/** A Telegram rental waiting for its code (created 10:00, cancellable at 10:02, expiring 10:20 UTC). */
export const orderFor = (o: Partial<Order> = {}): Order => ({
  id: '1',
  serviceCode: 'tg',
  serviceName: 'Telegram',
  phoneNumber: '15550000001',
  codeText: null,
  smsText: null,
  status: 'WAIT_CODE',
  price: 0.5,
  createdAt: '2026-11-22T10:00:00.000Z',
  expiresAt: '2026-11-22T10:20:00.000Z',
  cancelableAt: '2026-11-22T10:02:00.000Z',
  finished: false,
  ...o,
});

/** An unsigned JWT with the given claims (the web app only decodes tokens; the server verifies them). */
export function fakeToken(claims: Record<string, unknown>): string {
  const b64 = (v: unknown) =>
    btoa(JSON.stringify(v)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}.c2lnbmF0dXJl`;
}

/** Claims of a token valid for an hour. */
export function claimsFor(username: string, role: string | string[] = 'User', expSeconds = 3600) {
  return { sub: `id-${username}`, username, role, exp: Math.floor(Date.now() / 1000) + expSeconds };
}

/** The answer of POST /api/user/info for a test user. */
export function userInfoFor(username: string, roles: Role[], balance = 0): UserInfo {
  return {
    username,
    email: `${username}@example.com`,
    createdTime: '2026-01-02T03:04:05.000Z',
    apiKey: null,
    balance,
    roles,
  };
}

/** Replaces fetch with a function answering JSON per path; returns the mock for call assertions. */
export function mockFetch(handler: (path: string, init?: RequestInit) => { status?: number; body: unknown }) {
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const { status = 200, body } = handler(path, init);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

/**
 * The whole app (real route table, guards, providers) in a memory router at `path`, in English unless
 * `lang` says otherwise (that language's texts loaded first: `await loadLanguage('vi')`).
 */
export function renderApp(path: string, { lang = 'en' }: { lang?: Language } = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  const view = render(
    <I18nProvider initial={lang}>
      <ThemeProvider>
        <QueryClientProvider client={queryClient}>
          <AppRouterProvider router={router} />
        </QueryClientProvider>
      </ThemeProvider>
    </I18nProvider>,
  );
  return { ...view, router, queryClient };
}

/**
 * Two clicks on the same control as quick as a browser can deliver them: plain DOM clicks outside the
 * test's act() (so React schedules renders as in a browser), the second as soon as the first's navigation
 * has settled. A page that renders navigations in a transition would still show the old state then, and
 * the second click would build on it.
 */
export async function clickTwiceQuickly(
  router: ReturnType<typeof createMemoryRouter>,
  target: () => HTMLElement,
) {
  const env = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  const wasAct = env.IS_REACT_ACT_ENVIRONMENT;
  env.IS_REACT_ACT_ENVIRONMENT = false;
  try {
    const before = router.state.location;
    target().click();
    while (router.state.location === before) await Promise.resolve();
    target().click();
  } finally {
    env.IS_REACT_ACT_ENVIRONMENT = wasAct;
  }
}

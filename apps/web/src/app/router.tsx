import { ADMIN_ROLE } from '@simdock/contract';
import type { QueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { flushSync } from 'react-dom';
import { createBrowserRouter, type DataRouter, Outlet, type RouteObject, RouterProvider } from 'react-router';
import { getToken } from '../api/token.ts';
import { LoadingOverlay } from '../components/LoadingOverlay.tsx';
import { loadTexts, type TextGroup } from '../i18n/index.tsx';
import { SessionProvider, useSession } from '../session/session.tsx';
import { RequireAuth, RootRedirect, SignedOutOnly } from './guards.tsx';
import { lazyPage } from './PageUnavailable.tsx';
import { RouteError } from './RouteError.tsx';

// The shell (sidebar, top bar, notifications, toasts, live updates) is its own chunk: the signed-out
// pages (login, register, landing) never load it. With it come the signed-in screens' English texts
// (i18n/en-screens.ts): every signed-in page renders inside the shell, so its texts are there first.
let shellLoad: Promise<{ default: typeof import('./shell/AppShell.tsx').AppShell }> | undefined;
/** Starts loading the shell's chunk (once); a signed-in start calls it beside the page's own chunk. */
export function preloadShell() {
  shellLoad ??= Promise.all([import('./shell/AppShell.tsx'), loadTexts('screens')]).then(([m]) => ({
    default: m.AppShell,
  }));
  return shellLoad;
}
const LazyShell = lazy(preloadShell);

/** The app's query client, for a page's data to start with its chunk (createAppRouter sets it). */
let appQueryClient: QueryClient | undefined;

function Shell({ children }: { children?: ReactNode }) {
  return (
    <Suspense fallback={<LoadingOverlay />}>
      <LazyShell>{children}</LazyShell>
    </Suspense>
  );
}

/** Inside the shell when signed in (so /unauthorized keeps the menu), bare otherwise. */
function ShellIfSignedIn() {
  const session = useSession();
  if (session.loading) return <LoadingOverlay />;
  return session.user ? <Shell /> : <Outlet />;
}

/**
 * A lazily loaded page (its own chunk): page(() => import('../pages/x/XPage.tsx'), 'XPage'), and the
 * group of English texts it needs beyond the initial ones, when it is not inside the shell. A chunk
 * that cannot load (no connection) shows "No connection" in the page's place and retries (lazyPage).
 */
function page<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M & string,
  texts?: TextGroup,
) {
  return lazyPage(async () => {
    const [module] = await Promise.all([load(), texts ? loadTexts(texts) : undefined]);
    return module[name] as ComponentType;
  });
}

function Root() {
  return (
    <SessionProvider>
      <Outlet />
    </SessionProvider>
  );
}

/**
 * The route table (docs/product.md#screens-and-routes). Paths keep their historical spelling; matching is
 * case-insensitive, so /Details/{mac} reaches /details/:id. To build a screen, replace its page file; to add
 * one, add a route in the right group.
 */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    HydrateFallback: () => <LoadingOverlay />,
    children: [
      { index: true, element: <RootRedirect /> },

      // Signed-out only.
      {
        element: <SignedOutOnly />,
        children: [{ path: 'login', lazy: page(() => import('../pages/login/LoginPage.tsx'), 'LoginPage') }],
      },

      // Public.
      {
        path: 'register',
        lazy: page(() => import('../pages/register/RegisterPage.tsx'), 'RegisterPage', 'public'),
      },
      {
        path: 'privacy',
        lazy: page(() => import('../pages/legal/PrivacyPage.tsx'), 'PrivacyPage', 'public'),
      },
      { path: 'terms', lazy: page(() => import('../pages/legal/TermsPage.tsx'), 'TermsPage', 'public') },
      { path: 'home', lazy: page(() => import('../pages/landing/LandingPage.tsx'), 'LandingPage', 'public') },
      // Password recovery: public (a mailed link may be opened in a browser that is signed in).
      {
        path: 'forgot-password',
        lazy: page(
          () => import('../pages/forgot-password/ForgotPasswordPage.tsx'),
          'ForgotPasswordPage',
          'public',
        ),
      },
      {
        path: 'reset-password',
        lazy: page(
          () => import('../pages/reset-password/ResetPasswordPage.tsx'),
          'ResetPasswordPage',
          'public',
        ),
      },
      {
        element: <ShellIfSignedIn />,
        children: [
          {
            path: 'unauthorized',
            lazy: page(() => import('../pages/unauthorized/UnauthorizedPage.tsx'), 'UnauthorizedPage'),
          },
        ],
      },

      // Signed in, inside the shell.
      {
        element: <RequireAuth />,
        children: [
          {
            element: <Shell />,
            children: [
              {
                path: 'dashboard',
                // Its lists are asked for the moment its chunk is here, beside the user info and the
                // shell's chunk, not once the page renders inside them.
                lazy: lazyPage(async () => {
                  const m = await import('../pages/dashboard/DashboardPage.tsx');
                  if (appQueryClient && getToken()) m.prefetchDashboard(appQueryClient);
                  return m.DashboardPage;
                }),
              },
              { path: 'topup', lazy: page(() => import('../pages/topup/TopupPage.tsx'), 'TopupPage') },
              {
                path: 'balance',
                lazy: page(
                  () => import('../pages/balance-history/BalanceHistoryPage.tsx'),
                  'BalanceHistoryPage',
                ),
              },
              { path: 'apikey', lazy: page(() => import('../pages/apikey/ApiKeyPage.tsx'), 'ApiKeyPage') },
              {
                path: 'userinfo',
                lazy: page(() => import('../pages/userinfo/UserInfoPage.tsx'), 'UserInfoPage'),
              },
              {
                path: 'SMS_SendingPage',
                lazy: page(() => import('../pages/sms-sending/SmsSendingPage.tsx'), 'SmsSendingPage'),
              },
              { path: 'ChatPage', lazy: page(() => import('../pages/chat/ChatPage.tsx'), 'ChatPage') },
              {
                path: 'History',
                lazy: page(() => import('../pages/history/HistoryPage.tsx'), 'HistoryPage'),
              },

              // Role Admin9.
              {
                element: <RequireAuth role={ADMIN_ROLE} />,
                children: [
                  {
                    path: 'admin',
                    lazy: page(
                      () => import('../pages/admin-overview/AdminOverviewPage.tsx'),
                      'AdminOverviewPage',
                    ),
                  },
                  {
                    path: 'usermanager',
                    lazy: page(() => import('../pages/user-manager/UserManagerPage.tsx'), 'UserManagerPage'),
                  },
                  {
                    path: 'servicemanager',
                    lazy: page(
                      () => import('../pages/service-manager/ServiceManagerPage.tsx'),
                      'ServiceManagerPage',
                    ),
                  },
                  {
                    path: 'gatewaymanager',
                    lazy: page(
                      () => import('../pages/gateway-manager/GatewayManagerPage.tsx'),
                      'GatewayManagerPage',
                    ),
                  },
                  {
                    path: 'details/:id',
                    lazy: page(
                      () => import('../pages/device-details/DeviceDetailsPage.tsx'),
                      'DeviceDetailsPage',
                    ),
                  },
                  {
                    path: 'paymentmanager',
                    lazy: page(
                      () => import('../pages/payment-manager/PaymentManagerPage.tsx'),
                      'PaymentManagerPage',
                    ),
                  },
                  {
                    path: 'ordermanager',
                    lazy: page(
                      () => import('../pages/order-manager/OrderManagerPage.tsx'),
                      'OrderManagerPage',
                    ),
                  },
                  {
                    path: 'settings',
                    lazy: page(() => import('../pages/settings/SettingsPage.tsx'), 'SettingsPage'),
                  },
                  {
                    path: 'audit',
                    lazy: page(() => import('../pages/audit/AuditPage.tsx'), 'AuditPage'),
                  },
                ],
              },
            ],
          },
        ],
      },

      { path: '*', lazy: page(() => import('../pages/not-found/NotFoundPage.tsx'), 'NotFoundPage') },
    ],
  },
];

export function createAppRouter(queryClient?: QueryClient) {
  appQueryClient = queryClient;
  return createBrowserRouter(routes);
}

/** react-dom's flushSync in the shape the router takes: navigations that ask for it render at once. */
const renderNow = (fn: () => unknown): undefined => {
  flushSync(fn);
};

/**
 * The router's provider as the app (and its tests) use it: able to render a navigation at once instead of
 * in a transition (lib/useSearchState.ts asks for that, so a click right after another sees its list).
 */
export function AppRouterProvider({ router }: { router: DataRouter }) {
  return <RouterProvider router={router} flushSync={renderNow} />;
}

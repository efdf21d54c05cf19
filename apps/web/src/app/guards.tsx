import type { Role } from '@simdock/contract';
import { CircleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Button } from '../components/Button.tsx';
import { LoadingOverlay } from '../components/LoadingOverlay.tsx';
import { useI18n } from '../i18n/index.tsx';
import { useSession, wasSignedOutByUser } from '../session/session.tsx';
import { NEXT_PARAM, safeNextPath } from '../session/session-core.ts';

export { safeNextPath } from '../session/session-core.ts';

/**
 * Route guards (docs/product.md#screens-and-routes). As route elements they render their child routes
 * (<Outlet/>):
 *   { element: <RequireAuth />, children: [...] }               signed in, any role
 *   { element: <RequireAuth role="Admin9" />, children: [...] } signed in with the role
 * With a valid stored token the page renders at once, while the user info is still on its way (the
 * roles come from the token, and the page's own calls need only the token): nothing waits for it in
 * turn. No user → /login?next=<this page>, to come back after signing in; a missing role → /unauthorized.
 */
export function RequireAuth({ role, children }: { role?: Role; children?: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.error) return <SessionError />;
  if (!session.user && !session.loading) {
    if (wasSignedOutByUser()) return <Navigate to="/login" replace />;
    const here = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`/login?${NEXT_PARAM}=${encodeURIComponent(here)}`} replace />;
  }
  if (role && !session.roles.includes(role)) return <Navigate to="/unauthorized" replace />;
  return children ?? <Outlet />;
}

/** /login: signed-out only; a signed-in user is sent to `next` or home (/dashboard, or /admin for Admin9). */
export function SignedOutOnly({ children }: { children?: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.loading) return <LoadingOverlay />;
  if (session.user) {
    const next = safeNextPath(new URLSearchParams(location.search).get(NEXT_PARAM));
    return <Navigate to={next ?? session.home} replace />;
  }
  return children ?? <Outlet />;
}

/** /: home when signed in (/dashboard; the overview /admin for Admin9), otherwise to /login. */
export function RootRedirect() {
  const session = useSession();
  if (session.loading) return <LoadingOverlay />;
  return <Navigate to={session.user ? session.home : '/login'} replace />;
}

/** The token is fine but the user info could not be fetched: say so, offer a retry or signing out. */
function SessionError() {
  const { t } = useI18n();
  const session = useSession();
  return (
    <div className="flex min-h-screen items-center justify-center p-6">
      <div
        role="alert"
        className="max-w-sm rounded-lg border border-line bg-surface p-6 text-center shadow-sm"
      >
        <CircleAlert className="mx-auto size-8 text-bad" aria-hidden />
        <p className="mt-3 font-medium">{t('errors.userInfo')}</p>
        {session.error?.message ? (
          <p className="mt-1 text-[13px] text-muted">{session.error.message}</p>
        ) : null}
        <div className="mt-5 flex justify-center gap-2">
          <Button onClick={session.logout}>{t('nav.logout')}</Button>
          <Button variant="primary" onClick={() => void session.refresh()}>
            {t('common.retry')}
          </Button>
        </div>
      </div>
    </div>
  );
}

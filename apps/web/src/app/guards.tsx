import type { Role } from '@simdock/contract';
import { CircleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { Button } from '../components/Button.tsx';
import { LoadingOverlay } from '../components/LoadingOverlay.tsx';
import { useI18n } from '../i18n/index.tsx';
import { useSession } from './session.tsx';

/**
 * Route guards (docs/product.md#screens-and-routes). As route elements they render their child routes
 * (<Outlet/>):
 *   { element: <RequireAuth />, children: [...] }               signed in, any role
 *   { element: <RequireAuth role="Admin9" />, children: [...] } signed in with the role
 * While the session loads a loading view shows; no user → /login; a missing role → /unauthorized.
 */
export function RequireAuth({ role, children }: { role?: Role; children?: ReactNode }) {
  const session = useSession();
  if (session.loading) return <LoadingOverlay />;
  if (session.error) return <SessionError />;
  if (!session.user) return <Navigate to="/login" replace />;
  if (role && !session.roles.includes(role)) return <Navigate to="/unauthorized" replace />;
  return children ?? <Outlet />;
}

/** /login: signed-out only; a signed-in user is sent home (/dashboard, or /admin for Admin9). */
export function SignedOutOnly({ children }: { children?: ReactNode }) {
  const session = useSession();
  if (session.loading) return <LoadingOverlay />;
  if (session.user) return <Navigate to={session.home} replace />;
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

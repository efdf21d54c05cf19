import { ShieldX } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClass } from '../../components/Button.tsx';
import { PublicHeader } from '../../components/PublicLayout.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { useSession } from '../../session/session.tsx';

/**
 * /unauthorized: where the role guard sends a user who lacks the page's role. Signed in, it shows
 * inside the shell (the menu stays); signed out, under the public header.
 */
export function UnauthorizedPage() {
  const { t } = useI18n();
  const { user, home } = useSession();
  const navigate = useNavigate();
  useDocumentTitle(t('unauthorized.title'));
  const content = (
    <div className="mx-auto max-w-md py-10 text-center">
      <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-bad-soft text-bad">
        <ShieldX className="size-7" aria-hidden />
      </span>
      <p className="mt-4 text-sm font-semibold text-muted">403</p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight">{t('unauthorized.title')}</h1>
      <p className="mt-2 text-muted">{t('unauthorized.text')}</p>
      <div className="mt-7 flex flex-wrap justify-center gap-2">
        <Button onClick={() => navigate(-1)}>{t('common.goBack')}</Button>
        {user ? (
          <Link to={home} className={buttonClass('primary')}>
            {t('common.backToDashboard')}
          </Link>
        ) : (
          <Link to="/login" className={buttonClass('primary')}>
            {t('common.signIn')}
          </Link>
        )}
      </div>
    </div>
  );
  if (user) return content;
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main id="main" className="flex flex-1 items-center justify-center px-4 py-12">
        {content}
      </main>
    </div>
  );
}

import { Link } from 'react-router';
import { buttonClass } from '../../components/Button.tsx';
import { PublicHeader } from '../../components/PublicLayout.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { useSession } from '../../session/session.tsx';

/** Any path outside the route table. */
export function NotFoundPage() {
  const { t } = useI18n();
  const { user } = useSession();
  useDocumentTitle(t('notFound.title'));
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main id="main" className="flex flex-1 items-center justify-center px-4 py-12">
        <div className="max-w-md text-center">
          <p className="text-5xl font-bold tracking-tight text-accent-text">404</p>
          <h1 className="mt-3 text-2xl font-semibold tracking-tight">{t('notFound.title')}</h1>
          <p className="mt-2 text-muted">{t('notFound.text')}</p>
          <Link to={user ? '/dashboard' : '/home'} className={buttonClass('primary', 'md', 'mt-7')}>
            {user ? t('common.backToDashboard') : t('common.goHome')}
          </Link>
        </div>
      </main>
    </div>
  );
}

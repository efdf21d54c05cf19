import { CircleAlert } from 'lucide-react';
import { useRouteError } from 'react-router';
import { Button } from '../components/Button.tsx';
import { useI18n } from '../i18n/index.tsx';

/** Shown when a page throws while rendering or fails to load its code (e.g. after a deploy). */
export function RouteError() {
  const { t } = useI18n();
  const error = useRouteError();
  console.error(error);
  return (
    <div className="flex min-h-dvh items-center justify-center p-6">
      <div
        role="alert"
        className="max-w-md rounded-lg border border-line bg-surface p-8 text-center shadow-sm"
      >
        <CircleAlert className="mx-auto size-9 text-bad" aria-hidden />
        <h1 className="mt-3 text-lg font-semibold">{t('errors.pageTitle')}</h1>
        <p className="mt-1.5 text-muted">{t('errors.pageText')}</p>
        <div className="mt-6 flex justify-center gap-2">
          <Button onClick={() => window.location.assign('/dashboard')}>{t('common.backToDashboard')}</Button>
          <Button variant="primary" onClick={() => window.location.reload()}>
            {t('errors.reload')}
          </Button>
        </div>
      </div>
    </div>
  );
}

import { Hourglass } from 'lucide-react';
import { Link } from 'react-router';
import { useI18n } from '../i18n/index.tsx';
import { buttonClass } from './Button.tsx';
import { PageHeader } from './PageHeader.tsx';

/**
 * Placeholder for a routed screen that is not built yet. Each such screen has its own folder in
 * src/pages/<screen>/ whose page renders this; replace the page file to build the screen.
 */
export function ComingSoon({ title }: { title: string }) {
  const { t } = useI18n();
  return (
    <>
      <PageHeader title={title} />
      <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-line-strong bg-surface px-6 py-14 text-center">
        <span className="rounded-full bg-accent-soft p-3 text-accent-text">
          <Hourglass className="size-6" aria-hidden />
        </span>
        <h2 className="text-base font-semibold">{t('common.comingSoon')}</h2>
        <p className="max-w-md text-muted">{t('common.comingSoonText')}</p>
        <Link to="/dashboard" className={buttonClass('secondary', 'md', 'mt-2')}>
          {t('common.backToDashboard')}
        </Link>
      </div>
    </>
  );
}

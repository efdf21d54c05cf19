import { LoaderCircle } from 'lucide-react';
import { useI18n } from '../i18n/index.tsx';
import { cx } from '../lib/cx.ts';

/** A spinner with an accessible label, for inline loading states. */
export function Spinner({ label, className }: { label?: string; className?: string }) {
  const { t } = useI18n();
  return (
    <span role="status" className={cx('inline-flex items-center gap-2 text-muted', className)}>
      <LoaderCircle className="size-4 animate-spin" aria-hidden />
      <span className="text-sm">{label ?? t('common.loading')}</span>
    </span>
  );
}

/** The spec's full-screen loading overlay; the message defaults to 'Loading…'. */
export function LoadingOverlay({ message }: { message?: string }) {
  const { t } = useI18n();
  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed inset-0 z-50 flex items-center justify-center bg-page/80 backdrop-blur-[2px]"
    >
      <div className="flex items-center gap-3 rounded-lg border border-line bg-surface px-5 py-4 shadow-lg">
        <LoaderCircle className="size-5 animate-spin text-accent" aria-hidden />
        <span className="font-medium text-fg">{message ?? t('common.loading')}</span>
      </div>
    </div>
  );
}

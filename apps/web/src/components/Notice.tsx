import { CircleAlert, CircleCheck, Info, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/index.tsx';
import { cx } from '../lib/cx.ts';

export type NoticeTone = 'success' | 'error' | 'info';

const TONES: Record<NoticeTone, { box: string; Icon: typeof Info }> = {
  success: { box: 'bg-ok-soft text-ok border-ok/25', Icon: CircleCheck },
  error: { box: 'bg-bad-soft text-bad border-bad/25', Icon: CircleAlert },
  info: { box: 'bg-info-soft text-info border-info/25', Icon: Info },
};

export interface NoticeProps {
  tone: NoticeTone;
  /** Bold first words, e.g. 'Login failed'. */
  title?: ReactNode;
  children?: ReactNode;
  /** Shows a close button. */
  onDismiss?: () => void;
  /** The mark in front (default: the tone's icon). */
  icon?: typeof Info;
  className?: string;
}

/**
 * A banner for the spec's success and error messages. Errors use role="alert" (announced at once),
 * the others role="status". Render it conditionally: {error && <Notice tone="error">{error}</Notice>}.
 */
export function Notice({ tone, title, children, onDismiss, className, icon }: NoticeProps) {
  const { t } = useI18n();
  const { box, Icon: toneIcon } = TONES[tone];
  const Icon = icon ?? toneIcon;
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cx('flex items-start gap-2.5 rounded-md border px-3 py-2.5 text-sm', box, className)}
    >
      <Icon className="mt-px size-4 shrink-0" aria-hidden />
      <div className="min-w-0 flex-1 text-fg">
        {title ? <span className="font-semibold">{title}</span> : null}
        {title && children ? ' ' : null}
        {children}
      </div>
      {onDismiss ? (
        <button
          type="button"
          onClick={onDismiss}
          aria-label={t('common.dismiss')}
          className="-m-1 rounded p-1 text-muted hover:text-fg"
        >
          <X className="size-4" aria-hidden />
        </button>
      ) : null}
    </div>
  );
}

import type { UseQueryResult } from '@tanstack/react-query';
import { CircleAlert, Inbox, WifiOff } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useI18n } from '../i18n/index.tsx';
import { cx } from '../lib/cx.ts';
import { failureKind, failureText } from '../lib/errors.ts';
import { Button } from './Button.tsx';

/**
 * The one pattern for a data view that is loading, empty, failed or offline:
 *   - failure is never an empty state: <ErrorState> says what failed (title), why in plain words
 *     (the server's message, or "No connection to the server…"), and offers Retry;
 *   - <EmptyState> is shown only when the data loaded and there is nothing;
 *   - <QueryState> picks one of loading / error / empty / content for a TanStack query.
 */

export interface ErrorStateProps {
  /** What failed, e.g. t('gateways.loadFailed') → "Load failed". */
  title: ReactNode;
  /** The thrown error; its plain-words text is shown under the title. */
  error?: unknown;
  /** Shows "Try again"; a returned promise keeps the button busy until it settles. */
  onRetry?: () => unknown;
  /** Extra next step under the text (a link, a hint). */
  children?: ReactNode;
  /** Smaller, for a table cell or a card. */
  compact?: boolean;
  className?: string;
}

export function ErrorState({ title, error, onRetry, children, compact, className }: ErrorStateProps) {
  const { t } = useI18n();
  const [retrying, setRetrying] = useState(false);
  const kind = failureKind(error);
  const Icon = kind === 'offline' || kind === 'network' ? WifiOff : CircleAlert;
  const retry = async () => {
    setRetrying(true);
    try {
      await onRetry?.();
    } finally {
      setRetrying(false);
    }
  };
  return (
    <div
      role="alert"
      data-testid="error-state"
      className={cx(
        'flex flex-col items-center text-center',
        compact ? 'gap-1.5 px-3 py-6' : 'gap-2 px-6 py-10',
        className,
      )}
    >
      <span className={cx('rounded-full bg-bad-soft text-bad', compact ? 'p-2' : 'p-3')}>
        <Icon className={compact ? 'size-4' : 'size-6'} aria-hidden />
      </span>
      <p className="font-semibold text-fg">{title}</p>
      {error !== undefined ? (
        <p className="max-w-md text-[13px] text-muted">{failureText(error, t)}</p>
      ) : null}
      {children}
      {onRetry ? (
        <Button
          size="sm"
          className="mt-1.5"
          onClick={() => void retry()}
          busy={retrying}
          busyLabel={t('errors.retrying')}
        >
          {t('common.retry')}
        </Button>
      ) : null}
    </div>
  );
}

export interface EmptyStateProps {
  /** The spec's empty text, e.g. t('gateways.empty'). */
  title: ReactNode;
  text?: ReactNode;
  icon?: ReactNode;
  /** The next step: a button or link (e.g. "Add gateway"). */
  action?: ReactNode;
  compact?: boolean;
  className?: string;
}

export function EmptyState({ title, text, icon, action, compact, className }: EmptyStateProps) {
  return (
    <div
      data-testid="empty-state"
      className={cx(
        'flex flex-col items-center text-center',
        compact ? 'gap-1.5 px-3 py-6' : 'gap-2 px-6 py-10',
        className,
      )}
    >
      <span className="rounded-full bg-subtle p-3 text-muted" aria-hidden>
        {icon ?? <Inbox className="size-6" />}
      </span>
      <p className="text-muted">{title}</p>
      {text ? <p className="max-w-md text-[13px] text-muted">{text}</p> : null}
      {action ? <div className="mt-1.5">{action}</div> : null}
    </div>
  );
}

/** Skeleton lines for a loading card (tables have their own skeleton rows). */
export function SkeletonLines({ lines = 3, className }: { lines?: number; className?: string }) {
  const { t } = useI18n();
  return (
    <div className={cx('flex flex-col gap-2.5 p-4', className)} aria-busy>
      <span className="sr-only" role="status">
        {t('common.loading')}
      </span>
      {Array.from({ length: lines }, (_, i) => (
        <span
          // biome-ignore lint/suspicious/noArrayIndexKey: skeleton lines have no identity
          key={i}
          className="block h-3.5 animate-pulse rounded bg-subtle"
          style={{ width: `${90 - i * 15}%` }}
        />
      ))}
    </div>
  );
}

export interface QueryStateProps<T> {
  query: Pick<UseQueryResult<T>, 'data' | 'error' | 'isError' | 'isPending' | 'refetch'>;
  /** What failed, for the error title. */
  errorTitle: ReactNode;
  /** True when the loaded data has nothing to show. */
  isEmpty?: (data: T) => boolean;
  /** Shown when isEmpty says so. */
  empty?: ReactNode;
  /** Shown while the first load runs (default: skeleton lines). */
  loading?: ReactNode;
  compact?: boolean;
  children: (data: T) => ReactNode;
}

/**
 * One of: loading, error (with Retry, never together with the empty text), empty, content. Data
 * that loaded before a failed refetch stays shown (the next refetch or Retry updates it).
 */
export function QueryState<T>({
  query,
  errorTitle,
  isEmpty,
  empty,
  loading,
  compact,
  children,
}: QueryStateProps<T>) {
  if (query.data !== undefined) {
    if (isEmpty?.(query.data)) return <>{empty}</>;
    return <>{children(query.data)}</>;
  }
  if (query.isError)
    return (
      <ErrorState title={errorTitle} error={query.error} onRetry={() => query.refetch()} compact={compact} />
    );
  return <>{loading ?? <SkeletonLines />}</>;
}

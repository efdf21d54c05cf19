import type { ReactNode } from 'react';
import { formatNumber } from '../lib/format.ts';
import { useDocumentTitle } from '../lib/useDocumentTitle.ts';

export interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** A total shown next to the title (e.g. the number of gateways). */
  count?: number;
  /** The count is the server's estimate (a long list): shown as "≈ n". */
  countEstimated?: boolean;
  /** Buttons on the right (wrap below the title on small screens). */
  actions?: ReactNode;
}

/** The top of every page: one h1, optional subtitle and count, actions on the right. A string title
 * also becomes the tab title. */
export function PageHeader({ title, subtitle, count, countEstimated, actions }: PageHeaderProps) {
  useDocumentTitle(typeof title === 'string' ? title : undefined);
  return (
    <header className="mb-5 flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <h1 className="flex items-center gap-2 text-xl font-semibold tracking-tight text-fg">
          {title}
          {count !== undefined ? (
            <span className="rounded-full bg-subtle px-2 py-0.5 text-xs font-medium text-muted tabular">
              {countEstimated ? `≈ ${formatNumber(count)}` : count}
            </span>
          ) : null}
        </h1>
        {subtitle ? <p className="mt-1 max-w-3xl text-muted">{subtitle}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </header>
  );
}

import type { ReactNode } from 'react';
import { cx } from '../lib/cx.ts';

export interface CardProps {
  /** A heading (h2) at the top of the card. */
  title?: ReactNode;
  description?: ReactNode;
  /** Buttons right of the title. */
  actions?: ReactNode;
  children?: ReactNode;
  className?: string;
  /** Remove the inner padding (for tables that run edge to edge). */
  flush?: boolean;
  id?: string;
}

/** A bordered surface that groups a page's content. */
export function Card({ title, description, actions, children, className, flush, id }: CardProps) {
  return (
    <section
      id={id}
      className={cx('min-w-0 scroll-mt-18 rounded-lg border border-line bg-surface shadow-xs', className)}
    >
      {title || actions ? (
        <div className="flex flex-wrap items-start justify-between gap-2 border-b border-line px-4 py-3">
          <div>
            {title ? <h2 className="text-[15px] font-semibold text-fg">{title}</h2> : null}
            {description ? <p className="mt-0.5 text-[13px] text-muted">{description}</p> : null}
          </div>
          {actions}
        </div>
      ) : null}
      <div className={flush ? '' : 'p-4'}>{children}</div>
    </section>
  );
}

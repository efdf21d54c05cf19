import type { ReactNode } from 'react';
import { cx } from '../lib/cx.ts';

export interface StatTileProps {
  label: ReactNode;
  /** The big figure, already formatted (formatNumber, formatMoney, formatPercent). */
  value: ReactNode;
  /** A small change line under the figure, e.g. '+12 today'. */
  delta?: ReactNode;
  deltaTone?: 'up' | 'down' | 'neutral';
  icon?: ReactNode;
}

/** A labelled figure for summary rows (dashboard, history, user manager). */
export function StatTile({ label, value, delta, deltaTone = 'neutral', icon }: StatTileProps) {
  return (
    <div className="rounded-lg border border-line bg-surface p-4 shadow-xs">
      <div className="flex items-center justify-between gap-2 text-[13px] text-muted">
        <span>{label}</span>
        {icon ? (
          <span className="text-muted" aria-hidden>
            {icon}
          </span>
        ) : null}
      </div>
      <div className="mt-1.5 text-2xl font-semibold tracking-tight text-fg tabular">{value}</div>
      {delta ? (
        <div
          className={cx(
            'mt-1 text-xs',
            deltaTone === 'up' ? 'text-ok' : deltaTone === 'down' ? 'text-bad' : 'text-muted',
          )}
        >
          {delta}
        </div>
      ) : null}
    </div>
  );
}

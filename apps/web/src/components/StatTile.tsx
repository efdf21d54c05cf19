import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cx } from '../lib/cx.ts';

export interface StatTileProps {
  label: ReactNode;
  /** The big figure, already formatted (formatNumber, formatMoney, formatPercent). */
  value: ReactNode;
  /** A small line under the figure, e.g. '+12 today' or what the figure counts. */
  delta?: ReactNode;
  deltaTone?: 'up' | 'down' | 'neutral';
  /** The figure's colour when it needs attention ('warn') or is all good ('ok'). */
  tone?: 'warn' | 'ok';
  icon?: ReactNode;
  /** The whole tile links to the screen that explains the figure. */
  to?: string;
}

const TILE = 'block min-w-0 rounded-lg border border-line bg-surface p-4 shadow-xs @container';

/** A labelled figure for summary rows (dashboard, history, user manager, admin overview). */
export function StatTile({ label, value, delta, deltaTone = 'neutral', tone, icon, to }: StatTileProps) {
  const figure = typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  const body = (
    <>
      {/* The label wraps, never clips: a narrow tile (two or three to a 390 px row) or a long word
          (Vietnamese, German) breaks onto more lines; the icon keeps its size. */}
      <div className="flex items-start justify-between gap-2 text-[13px] leading-snug text-muted">
        <span className="min-w-0 wrap-anywhere hyphens-auto">{label}</span>
        {icon ? (
          <span className="shrink-0 text-muted" aria-hidden>
            {icon}
          </span>
        ) : null}
      </div>
      <div
        className={cx(
          'mt-1.5 font-semibold tracking-tight tabular',
          // A figure never breaks mid-number ("1.234,50" / "00 US$"): one line, its size fitted to the
          // tile's width by its length. Other content (a device id) keeps its own wrapping.
          figure === undefined ? 'text-2xl wrap-anywhere' : 'whitespace-nowrap',
          tone === 'warn' ? 'text-warn' : tone === 'ok' ? 'text-ok' : 'text-fg',
        )}
        // A digit of the tabular figures is about 0.62em wide: the figure takes at most the tile's width.
        style={
          figure === undefined ? undefined : { fontSize: `min(1.5rem, 100cqi / ${figure.length * 0.62})` }
        }
      >
        {value}
      </div>
      {delta ? (
        <div
          className={cx(
            'mt-1 text-xs wrap-anywhere',
            deltaTone === 'up' ? 'text-ok' : deltaTone === 'down' ? 'text-bad' : 'text-muted',
          )}
        >
          {delta}
        </div>
      ) : null}
    </>
  );
  return to ? (
    <Link to={to} className={cx(TILE, 'hover:border-accent')}>
      {body}
    </Link>
  ) : (
    <div className={TILE}>{body}</div>
  );
}

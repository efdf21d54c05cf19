import type { DailyStatsPoint } from '@simdock/contract';
import type { MessageKey } from '../../i18n/index.tsx';

/**
 * The History chart's bars, left to right; its legend and its table for screen readers list them in
 * this order too. Replies are messages received that day (the Replied tile counts people).
 */
export const SERIES = [
  { key: 'sent', label: 'sending.sent', color: 'var(--color-info)' },
  { key: 'delivered', label: 'sending.delivered', color: 'var(--color-ok)' },
  { key: 'replies', label: 'history.repliesMessages', color: 'var(--color-warn)' },
] as const satisfies readonly { key: keyof DailyStatsPoint; label: MessageKey; color: string }[];

/** The legend's sort key: the bars' order (recharts sorts a legend by its text unless told otherwise). */
export const seriesRank = (item: { dataKey?: unknown }) => SERIES.findIndex((s) => s.key === item.dataKey);

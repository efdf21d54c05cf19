import type { DailyStatsPoint } from '@simdock/contract';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useI18n } from '../../i18n/index.tsx';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { SERIES, seriesRank } from './chart-series.ts';

/**
 * Sent, delivered and replies per day (recharts; this file is loaded only by the History page). A
 * visually hidden table carries the same numbers for screen readers.
 */
export default function HistoryChart({ days }: { days: DailyStatsPoint[] }) {
  const { t } = useI18n();
  const rows = days.map((d) => ({ ...d, day: formatDate(d.dayStart) }));
  return (
    <figure className="m-0">
      <div className="h-64 w-full min-w-0 overflow-hidden" aria-hidden>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart
            data={rows}
            accessibilityLayer={false}
            margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
          >
            <CartesianGrid strokeDasharray="3 3" stroke="var(--color-line)" vertical={false} />
            <XAxis dataKey="day" tick={{ fontSize: 12, fill: 'var(--color-muted)' }} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: 'var(--color-muted)' }} />
            <Tooltip
              contentStyle={{ background: 'var(--color-surface)', border: '1px solid var(--color-line)' }}
              formatter={(v) => formatNumber(Number(v))}
            />
            <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={seriesRank} />
            {SERIES.map((s) => (
              <Bar key={s.key} dataKey={s.key} name={t(s.label)} fill={s.color} radius={[3, 3, 0, 0]} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="sr-only">{t('history.chartCaption')}</figcaption>
      {/* The wrapper, not the table, is sr-only: a table keeps its content width whatever its own width
          and overflow say, so an sr-only table widened the page at 390 px. */}
      <div className="sr-only">
        <table>
          <caption>{t('history.chartCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('history.colTime')}</th>
              {SERIES.map((s) => (
                <th key={s.key} scope="col">
                  {t(s.label)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.dayStart}>
                <th scope="row">{r.day}</th>
                {SERIES.map((s) => (
                  <td key={s.key}>{r[s.key]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

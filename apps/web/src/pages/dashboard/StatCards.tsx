import { Activity, CalendarDays, Smartphone } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { failureText } from '../../lib/errors.ts';
import { formatNumber, formatPercent } from '../../lib/format.ts';
import { useDashboardStats } from './api.ts';

function Figure({
  label,
  value,
  hint,
  icon,
}: {
  label: string;
  value: ReactNode;
  hint: string;
  icon: ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-col px-3 py-2.5 sm:px-4 sm:py-3" title={hint}>
      {/* Labels wrap rather than clip: three columns on a 390 px phone, and Vietnamese labels are long. */}
      <dt className="flex items-start gap-1.5 text-xs leading-snug break-words text-muted sm:text-[13px]">
        <span className="hidden shrink-0 sm:mt-px sm:inline" aria-hidden>
          {icon}
        </span>
        {label}
      </dt>
      {/* At the bottom: the figures stay on one line when one label takes two. */}
      <dd className="mt-auto pt-0.5 text-lg font-semibold tracking-tight text-fg tabular sm:text-xl">
        {value}
      </dd>
      <dd className="hidden truncate text-xs text-muted md:block">{hint}</dd>
    </div>
  );
}

/**
 * Active Numbers, Daily Rentals and Uptime (docs/product.md#screens-and-routes) as one compact strip (three
 * columns even on a phone). Uptime is the measured share of the last 24 h the gateways were online; without
 * measurements it is left out rather than invented. A failure says so and offers Retry.
 */
export function StatCards() {
  const { t } = useI18n();
  const stats = useDashboardStats();
  const { data } = stats;
  const dash = '–';
  const showUptime = data?.uptime !== null;
  return (
    <section
      aria-label={t('dashboard.title')}
      data-testid="stat-cards"
      className="rounded-lg border border-line bg-surface shadow-xs"
    >
      <dl className={`grid divide-x divide-line ${showUptime ? 'grid-cols-3' : 'grid-cols-2'}`}>
        <Figure
          label={t('dashboard.activeNumbers')}
          value={data ? formatNumber(data.activeNumbers) : dash}
          hint={t('dashboard.activeHint')}
          icon={<Smartphone className="size-4" />}
        />
        <Figure
          label={t('dashboard.dailyRentals')}
          value={data ? formatNumber(data.dailyRentals) : dash}
          hint={t('dashboard.dailyHint')}
          icon={<CalendarDays className="size-4" />}
        />
        {showUptime ? (
          <Figure
            label={t('dashboard.uptime')}
            value={data && data.uptime !== null ? formatPercent(data.uptime) : dash}
            hint={t('dashboard.uptimeHint')}
            icon={<Activity className="size-4" />}
          />
        ) : null}
      </dl>
      {stats.isError && !data ? (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-2 border-t border-line px-3 py-2 text-[13px]"
        >
          <span>
            <span className="font-medium text-bad">{t('dashboard.statsError')}</span>{' '}
            <span className="text-muted">{failureText(stats.error, t)}</span>
          </span>
          <Button size="sm" onClick={() => void stats.refetch()}>
            {t('common.retry')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

import { Activity, CalendarDays, Smartphone } from 'lucide-react';
import { StatTile } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatNumber, formatPercent } from '../../lib/format.ts';
import { useDashboardStats } from './api.ts';

/**
 * Active Numbers, Daily Rentals and Uptime (spec §2), with real figures. Uptime is the measured share
 * of the last 24 h the gateways were online; without measurements the card is left out rather than
 * showing an invented figure.
 */
export function StatCards() {
  const { t } = useI18n();
  const { data } = useDashboardStats();
  const dash = '–';
  return (
    <section aria-label={t('dashboard.title')} className="grid gap-3 sm:grid-cols-3" data-testid="stat-cards">
      <StatTile
        label={t('dashboard.activeNumbers')}
        value={data ? formatNumber(data.activeNumbers) : dash}
        delta={t('dashboard.activeHint')}
        icon={<Smartphone className="size-4" />}
      />
      <StatTile
        label={t('dashboard.dailyRentals')}
        value={data ? formatNumber(data.dailyRentals) : dash}
        delta={t('dashboard.dailyHint')}
        icon={<CalendarDays className="size-4" />}
      />
      {data?.uptime !== null ? (
        <StatTile
          label={t('dashboard.uptime')}
          value={data && data.uptime !== null ? formatPercent(data.uptime) : dash}
          delta={t('dashboard.uptimeHint')}
          icon={<Activity className="size-4" />}
        />
      ) : null}
    </section>
  );
}

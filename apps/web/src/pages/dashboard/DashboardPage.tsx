import { PageHeader } from '../../components/PageHeader.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { LiveClock } from './LiveClock.tsx';
import { OrderList } from './OrderList.tsx';
import { ServiceList } from './ServiceList.tsx';
import { StatCards } from './StatCards.tsx';

/**
 * /dashboard (spec §2): the OTP rental dashboard — stat cards, the searchable service list with Rent,
 * and the user's orders, updated live (server-sent events) with the 5-second refresh as fallback.
 */
export function DashboardPage() {
  const { t } = useI18n();
  return (
    <>
      <PageHeader title={t('dashboard.title')} subtitle={t('dashboard.subtitle')} actions={<LiveClock />} />
      <div className="flex flex-col gap-5">
        <StatCards />
        <ServiceList />
        <OrderList />
      </div>
    </>
  );
}

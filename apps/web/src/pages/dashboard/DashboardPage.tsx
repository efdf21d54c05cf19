import { PageHeader } from '../../components/PageHeader.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { LiveClock } from './LiveClock.tsx';

/**
 * /dashboard (spec §2): the frame of the OTP rental dashboard. The rental content is added as separate
 * components in this folder (each with its calls in ./api.ts) and placed in the slots below.
 */
export function DashboardPage() {
  const { t } = useI18n();
  return (
    <>
      <PageHeader title={t('dashboard.title')} subtitle={t('dashboard.subtitle')} actions={<LiveClock />} />
      <div className="flex flex-col gap-5">
        {/* SLOT (rental): the three static stat cards of spec §2 (StatTile ×3). */}
        {/* SLOT (rental): search box with its Search button + the service list (POST /api/Service/getall). */}
        {/* SLOT (rental): the user's orders (POST /api/Order/getbyuser), refreshed every 5 s. */}
      </div>
    </>
  );
}

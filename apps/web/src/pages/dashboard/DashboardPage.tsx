import { Radio, Wallet } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../../components/Button.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { type LiveStatus, useLiveStatus } from '../../live/live.tsx';
import { useSession } from '../../session/session.tsx';
import { LiveClock } from './LiveClock.tsx';

export { prefetchDashboard } from './api.ts';

import { OrderList } from './OrderList.tsx';
import { CodeAlertsControl, PinnedRentals } from './RentalCards.tsx';
import { ServiceList } from './ServiceList.tsx';
import { StatCards } from './StatCards.tsx';

/** The "Live" mark: green while the event stream is connected; otherwise off, and says why. */
export function LiveIndicator({ status }: { status: LiveStatus }) {
  const { t } = useI18n();
  const label =
    status === 'live'
      ? t('dashboard.live')
      : status === 'connecting'
        ? t('notify.liveConnectingShort')
        : t('notify.liveOff');
  const why =
    status === 'live'
      ? t('notify.liveOn')
      : status === 'connecting'
        ? t('notify.liveConnecting')
        : t('notify.liveDown');
  return (
    <span
      className={cx(
        'inline-flex items-center gap-1.5 rounded-md border px-2.5 py-1.5 text-xs font-medium',
        status === 'live'
          ? 'border-ok/30 text-ok'
          : status === 'down'
            ? 'border-bad/30 text-bad'
            : 'border-line text-muted',
      )}
      title={why}
      data-testid="live-indicator"
      data-status={status}
    >
      <Radio className={cx('size-3.5', status === 'connecting' && 'animate-pulse')} aria-hidden />
      {label}
      <span className="sr-only">: {why}</span>
    </span>
  );
}

/** A user with no money sees how to start instead of hitting "balance too low" first. */
function Onboarding() {
  const { t } = useI18n();
  return (
    <section
      aria-labelledby="onboarding-title"
      className="flex flex-col gap-3 rounded-lg border border-accent/30 bg-accent-soft p-4 sm:flex-row sm:items-center"
      data-testid="onboarding"
    >
      <span className="self-start rounded-full bg-surface p-2.5 text-accent-text" aria-hidden>
        <Wallet className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <h2 id="onboarding-title" className="font-semibold text-fg">
          {t('onboarding.title')}
        </h2>
        <p className="mt-0.5 text-[13px] text-muted">{t('onboarding.text')}</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Link to="/topup" className={buttonClass('primary')}>
          {t('onboarding.action')}
        </Link>
        <a href="#services" className={buttonClass('secondary')}>
          {t('onboarding.prices')}
        </a>
      </div>
    </section>
  );
}

/**
 * /dashboard (docs/product.md#screens-and-routes): the active rentals pinned first (each with its countdown
 * and, the moment it arrives, its code, large), the compact figures, the searchable service list with Rent,
 * and "My numbers", updated live.
 */
export function DashboardPage() {
  const { t } = useI18n();
  const { user } = useSession();
  const live = useLiveStatus();
  return (
    <>
      <PageHeader
        title={t('dashboard.title')}
        subtitle={t('dashboard.subtitle')}
        actions={
          <>
            <LiveIndicator status={live} />
            <LiveClock />
            <CodeAlertsControl />
          </>
        }
      />
      <div className="flex flex-col gap-5">
        {live === 'down' ? (
          <p role="status" className="-mt-2 text-[13px] text-bad">
            {t('notify.liveDown')}
          </p>
        ) : null}
        <PinnedRentals />
        <StatCards />
        {user && user.balance <= 0 ? <Onboarding /> : null}
        <ServiceList />
        <OrderList />
      </div>
    </>
  );
}

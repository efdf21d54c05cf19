import {
  Boxes,
  ClipboardList,
  Cpu,
  Hourglass,
  Lock,
  MessageSquareWarning,
  Router,
  Users,
  Wallet,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../../components/Button.tsx';
import { Card } from '../../components/Card.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/StateViews.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { formatMoney, formatNumber } from '../../lib/format.ts';
import { useOverview } from './api.ts';

function Tile({
  label,
  value,
  hint,
  icon,
  to,
  tone,
}: {
  label: string;
  value: ReactNode;
  hint: string;
  icon: ReactNode;
  to?: string;
  tone?: 'warn' | 'ok';
}) {
  const body = (
    <>
      <div className="flex items-center justify-between gap-2 text-[13px] text-muted">
        <span>{label}</span>
        <span aria-hidden>{icon}</span>
      </div>
      <div
        className={cx(
          'mt-1 text-2xl font-semibold tracking-tight tabular',
          tone === 'warn' ? 'text-warn' : tone === 'ok' ? 'text-ok' : 'text-fg',
        )}
      >
        {value}
      </div>
      <div className="mt-0.5 text-xs text-muted">{hint}</div>
    </>
  );
  const cls = 'block min-w-0 rounded-lg border border-line bg-surface p-4 shadow-xs';
  return to ? (
    <Link to={to} className={cx(cls, 'hover:border-accent')}>
      {body}
    </Link>
  ) : (
    <div className={cls}>{body}</div>
  );
}

/** /admin: an admin's home — users, balance held, gateways online, SIMs, today's orders, unmatched SMS. */
export function AdminOverviewPage() {
  const { t } = useI18n();
  const overview = useOverview();
  return (
    <>
      <PageHeader title={t('overview.title')} subtitle={t('overview.subtitle')} />
      <QueryState
        query={overview}
        errorTitle={t('overview.loadFailed')}
        loading={
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-3" aria-busy>
            {Array.from({ length: 6 }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: skeleton tiles have no identity
              <div key={i} className="h-28 animate-pulse rounded-lg border border-line bg-surface" />
            ))}
          </div>
        }
      >
        {(o) => (
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-3" data-testid="overview-tiles">
            <Tile
              label={t('overview.users')}
              value={formatNumber(o.users)}
              hint={t('overview.usersHint')}
              icon={<Users className="size-4" />}
              to="/usermanager"
            />
            <Tile
              label={t('overview.balance')}
              value={formatMoney(o.balanceHeld)}
              hint={t('overview.balanceHint')}
              icon={<Wallet className="size-4" />}
            />
            <Tile
              label={t('overview.gateways')}
              value={`${formatNumber(o.gatewaysOnline)} / ${formatNumber(o.gatewaysTotal)}`}
              hint={t('overview.gatewaysHint', { online: o.gatewaysOnline, total: o.gatewaysTotal })}
              icon={<Router className="size-4" />}
              to="/gatewaymanager"
              tone={o.gatewaysTotal > 0 && o.gatewaysOnline < o.gatewaysTotal ? 'warn' : undefined}
            />
            <Tile
              label={t('overview.sims')}
              value={formatNumber(o.sims)}
              hint={t('overview.simsHint', { usable: o.simsUsable, total: o.sims })}
              icon={<Cpu className="size-4" />}
              to="/gatewaymanager"
            />
            <Tile
              label={t('overview.orders')}
              value={formatNumber(o.ordersToday)}
              hint={t('overview.ordersHint', { success: o.ordersTodaySuccess, waiting: o.ordersWaiting })}
              icon={<ClipboardList className="size-4" />}
              to="/ordermanager"
            />
            <Tile
              label={t('overview.unmatched')}
              value={formatNumber(o.unmatchedSms24h)}
              hint={t('overview.unmatchedHint')}
              icon={<MessageSquareWarning className="size-4" />}
              to="/ordermanager#unmatched"
              tone={o.unmatchedSms24h > 0 ? 'warn' : undefined}
            />
            <Tile
              label={t('overview.locked')}
              value={formatNumber(o.simsLocked)}
              hint={t('overview.lockedHint')}
              icon={<Lock className="size-4" />}
              to="/gatewaymanager"
              tone={o.simsLocked > 0 ? 'warn' : undefined}
            />
            <Tile
              label={t('overview.queue')}
              value={formatNumber(o.messagesWaitingForSim)}
              hint={t('overview.queueHint', { queued: formatNumber(o.messagesQueued) })}
              icon={<Hourglass className="size-4" />}
              tone={o.messagesWaitingForSim > 0 ? 'warn' : undefined}
            />
          </div>
        )}
      </QueryState>
      <Card title={t('overview.shortcuts')} className="mt-5">
        <div className="flex flex-wrap gap-2">
          <Link to="/gatewaymanager" className={buttonClass('secondary')}>
            <Router className="size-4" aria-hidden />
            {t('overview.openGateways')}
          </Link>
          <Link to="/servicemanager" className={buttonClass('secondary')}>
            <Boxes className="size-4" aria-hidden />
            {t('overview.openServices')}
          </Link>
          <Link to="/ordermanager" className={buttonClass('secondary')}>
            <ClipboardList className="size-4" aria-hidden />
            {t('overview.openOrders')}
          </Link>
          <Link to="/dashboard" className={buttonClass('secondary')}>
            {t('overview.openDashboard')}
          </Link>
        </div>
      </Card>
    </>
  );
}

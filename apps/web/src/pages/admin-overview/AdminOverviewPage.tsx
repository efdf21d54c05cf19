import type { AdminOverview } from '@simdock/contract';
import {
  Boxes,
  ClipboardList,
  Cpu,
  Hourglass,
  Lock,
  MessageSquareWarning,
  Router,
  Send,
  Users,
  Wallet,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../../components/Button.tsx';
import { Card } from '../../components/Card.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/StateViews.tsx';
import { StatTile, type StatTileProps } from '../../components/StatTile.tsx';
import { type MessageKey, type TFunction, useI18n } from '../../i18n/index.tsx';
import { formatMoney, formatNumber } from '../../lib/format.ts';
import { useOverview } from './api.ts';
import { MailOutboxSection } from './MailOutboxSection.tsx';

/** The overview's figures, in the order shown: each a StatTile, most linking to the screen behind it. */
function tiles(o: AdminOverview, t: TFunction): (StatTileProps & { key: string })[] {
  const warnIf = (attention: boolean) => (attention ? 'warn' : undefined);
  return [
    {
      key: 'users',
      label: t('overview.users'),
      value: formatNumber(o.users),
      delta: t('overview.usersHint'),
      icon: <Users className="size-4" />,
      to: '/usermanager',
    },
    {
      key: 'balance',
      label: t('overview.balance'),
      value: formatMoney(o.balanceHeld, { decimals: 4 }),
      delta: t('overview.balanceHint'),
      icon: <Wallet className="size-4" />,
    },
    {
      key: 'gateways',
      label: t('overview.gateways'),
      value: `${formatNumber(o.gatewaysOnline)} / ${formatNumber(o.gatewaysTotal)}`,
      delta: t('overview.gatewaysHint', { online: o.gatewaysOnline, total: o.gatewaysTotal }),
      icon: <Router className="size-4" />,
      to: '/gatewaymanager',
      tone: warnIf(o.gatewaysTotal > 0 && o.gatewaysOnline < o.gatewaysTotal),
    },
    {
      key: 'sims',
      label: t('overview.sims'),
      value: formatNumber(o.sims),
      delta: t('overview.simsHint', { usable: o.simsUsable, total: o.sims }),
      icon: <Cpu className="size-4" />,
      to: '/gatewaymanager',
    },
    {
      key: 'orders',
      label: t('overview.orders'),
      value: formatNumber(o.ordersToday),
      delta: t('overview.ordersHint', { success: o.ordersTodaySuccess, waiting: o.ordersWaiting }),
      icon: <ClipboardList className="size-4" />,
      to: '/ordermanager',
    },
    {
      key: 'unmatched',
      label: t('overview.unmatched'),
      value: formatNumber(o.unmatchedSms24h),
      delta: t('overview.unmatchedHint'),
      icon: <MessageSquareWarning className="size-4" />,
      to: '/ordermanager#unmatched',
      tone: warnIf(o.unmatchedSms24h > 0),
    },
    {
      key: 'locked',
      label: t('overview.locked'),
      value: formatNumber(o.simsLocked),
      delta: t('overview.lockedHint'),
      icon: <Lock className="size-4" />,
      to: '/gatewaymanager',
      tone: warnIf(o.simsLocked > 0),
    },
    {
      key: 'queue',
      label: t('overview.queue'),
      value: formatNumber(o.messagesWaitingForSim),
      delta: t('overview.queueHint', { queued: formatNumber(o.messagesQueued) }),
      icon: <Hourglass className="size-4" />,
      tone: warnIf(o.messagesWaitingForSim > 0),
    },
    {
      key: 'share',
      label: t('overview.share'),
      value: formatNumber(o.simsKeptForSending),
      delta:
        o.simsKeptForSendingPercent === 0
          ? t('overview.shareOff')
          : t('overview.shareHint', { count: o.simsKeptForSending, percent: o.simsKeptForSendingPercent }),
      icon: <Send className="size-4" />,
      to: '/settings',
    },
  ];
}

/** The shortcut buttons under the figures. */
const SHORTCUTS: { to: string; label: MessageKey; icon?: ReactNode }[] = [
  { to: '/gatewaymanager', label: 'overview.openGateways', icon: <Router className="size-4" aria-hidden /> },
  { to: '/servicemanager', label: 'overview.openServices', icon: <Boxes className="size-4" aria-hidden /> },
  {
    to: '/ordermanager',
    label: 'overview.openOrders',
    icon: <ClipboardList className="size-4" aria-hidden />,
  },
  { to: '/dashboard', label: 'overview.openDashboard' },
];

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
            {tiles(o, t).map(({ key, ...tile }) => (
              <StatTile key={key} {...tile} />
            ))}
          </div>
        )}
      </QueryState>
      <Card title={t('overview.shortcuts')} className="mt-5">
        <div className="flex flex-wrap gap-2">
          {SHORTCUTS.map((link) => (
            <Link key={link.to} to={link.to} className={buttonClass('secondary')}>
              {link.icon}
              {t(link.label)}
            </Link>
          ))}
        </div>
      </Card>
      <MailOutboxSection />
    </>
  );
}

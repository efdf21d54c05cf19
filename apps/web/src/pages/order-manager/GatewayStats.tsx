import { gatewaySuccessTone, type OrderFilterResponse } from '@simdock/contract';
import type { ReactNode } from 'react';
import { Card, type Column, DataTable, StatusBadge } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatNumber, formatPercent } from '../../lib/format.ts';

type Stat = OrderFilterResponse['groupPipeline'][number];

/** Lets a header wrap on small screens so the four columns fit a phone without scrolling. */
const Wrap = ({ children }: { children: ReactNode }) => <span className="whitespace-normal">{children}</span>;

/** Per-gateway statistics (docs/product.md#screens-and-routes): success rate green above 60 %, else red. */
export function GatewayStats({
  stats,
  loading,
  error,
  onRetry,
}: {
  stats: Stat[] | undefined;
  loading: boolean;
  error?: unknown;
  onRetry?: () => unknown;
}) {
  const { t } = useI18n();
  const columns: Column<Stat>[] = [
    {
      key: 'gateway',
      header: t('orders.statsGateway'),
      cell: (s) => <span className="font-medium">{s.gateway}</span>,
    },
    {
      key: 'total',
      header: <Wrap>{t('orders.statsTotal')}</Wrap>,
      align: 'right',
      cell: (s) => formatNumber(s.totalOrders),
    },
    {
      key: 'success',
      header: <Wrap>{t('orders.statsSuccess')}</Wrap>,
      align: 'right',
      cell: (s) => formatNumber(s.successOrders),
    },
    {
      key: 'rate',
      header: <Wrap>{t('orders.statsRate')}</Wrap>,
      align: 'right',
      cell: (s) => (
        <StatusBadge tone={gatewaySuccessTone(s.successRate)} className="tabular">
          {formatPercent(s.successRate)}
        </StatusBadge>
      ),
    },
  ];
  return (
    <Card title={t('orders.statsTitle')} flush className="mb-5">
      <DataTable
        caption={t('orders.statsCaption')}
        columns={columns}
        rows={stats}
        rowKey={(s) => s.gateway}
        loading={loading}
        error={error}
        errorTitle={t('orders.statsFailed')}
        onRetry={onRetry}
        emptyText={t('orders.statsEmpty')}
        phoneCards
        skeletonRows={2}
      />
    </Card>
  );
}

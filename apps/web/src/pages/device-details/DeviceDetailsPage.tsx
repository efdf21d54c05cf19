import { type DeviceStats, deviceSuccessTone, normalizeMac, percent } from '@simdock/contract';
import { ArrowLeft, Cpu, Fingerprint, SearchX } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { buttonClass } from '../../components/Button.tsx';
import { Card } from '../../components/Card.tsx';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { Spinner } from '../../components/LoadingOverlay.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EmptyState, ErrorState } from '../../components/StateViews.tsx';
import { StatTile } from '../../components/StatTile.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { formatNumber, formatPercent } from '../../lib/format.ts';
import { useDeviceStats } from './api.ts';

type ServiceRow = DeviceStats['serviceStatss'][number];

/**
 * /details/{id} (docs/product.md#screens-and-routes): the id is a box's MAC, or the gateway id of a phone
 * (which has no MAC; the server finds a gateway by either). Shows the MAC (a phone: its gateway id),
 * Total SIM and per service Using / Used / Success, where Success is green at 50% of Used or more, else red.
 */
export function DeviceDetailsPage() {
  const { t } = useI18n();
  const routeId = useParams().id ?? '';
  const stats = useDeviceStats(routeId);
  // A phone answers with no MAC: it is known by the id it was linked with.
  const mac = stats.data ? stats.data.mac : normalizeMac(routeId) !== undefined ? routeId : '';
  const shownId = mac || routeId;

  const columns: Column<ServiceRow>[] = [
    {
      key: 'name',
      header: t('device.colService'),
      cell: (s) => <span className="font-medium">{s.name}</span>,
    },
    {
      key: 'using',
      header: t('device.colUsing'),
      cell: (s) => <span className="tabular">{formatNumber(s.using)}</span>,
      align: 'right',
    },
    {
      key: 'used',
      header: t('device.colUsed'),
      cell: (s) => <span className="tabular">{formatNumber(s.used)}</span>,
      align: 'right',
    },
    {
      key: 'success',
      header: t('device.colSuccess'),
      cell: (s) => (
        <StatusBadge tone={deviceSuccessTone(s.success, s.used)} className="tabular">
          {formatNumber(s.success)} ({formatPercent(percent(s.success, s.used))})
        </StatusBadge>
      ),
      align: 'right',
    },
  ];

  const notFound = stats.error instanceof ApiError && stats.error.status === 404;
  const back = (
    <Link
      to="/gatewaymanager"
      className="mb-3 inline-flex items-center gap-1.5 rounded text-[13px] font-medium text-muted hover:text-fg"
    >
      <ArrowLeft className="size-4" aria-hidden />
      {t('device.back')}
    </Link>
  );

  if (notFound)
    return (
      <>
        {back}
        <PageHeader title={t('device.title')} />
        <Card>
          <EmptyState
            icon={<SearchX className="size-6" />}
            title={<span className="font-semibold text-fg">{t('device.notFoundTitle')}</span>}
            text={
              normalizeMac(routeId) !== undefined
                ? t('device.notFoundText', { mac: routeId })
                : t('device.notFoundTextId', { id: routeId })
            }
            action={
              <Link to="/gatewaymanager" className={buttonClass('secondary')}>
                {t('device.back')}
              </Link>
            }
          />
        </Card>
      </>
    );

  const name = stats.data?.name;
  return (
    <>
      {back}
      <PageHeader
        title={name ? `${t('device.title')} · ${name}` : t('device.title')}
        subtitle={name ? t('device.subtitleNamed', { name }) : t('device.subtitle')}
        actions={stats.isFetching ? <Spinner /> : undefined}
      />

      {stats.isError && !stats.data ? (
        <Card>
          <ErrorState title={t('device.loadFailed')} error={stats.error} onRetry={() => stats.refetch()} />
        </Card>
      ) : (
        <>
          <div className="mb-5 grid gap-4 sm:grid-cols-2" data-testid="device-summary">
            <StatTile
              label={mac ? t('device.mac') : t('device.id')}
              icon={<Fingerprint className="size-4" />}
              value={<span className="break-all font-mono text-lg">{shownId}</span>}
            />
            <StatTile
              label={t('device.totalSim')}
              icon={<Cpu className="size-4" />}
              value={stats.data ? formatNumber(stats.data.totalSIM) : '-'}
            />
          </div>
          <Card title={t('device.tableTitle')} flush>
            <DataTable
              columns={columns}
              rows={stats.data?.serviceStatss}
              rowKey={(s) => s.name}
              loading={stats.isPending}
              emptyText={t('device.empty')}
              caption={t('device.tableCaption', { mac: shownId })}
              skeletonRows={3}
            />
          </Card>
        </>
      )}
    </>
  );
}

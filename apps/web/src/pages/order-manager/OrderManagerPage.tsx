import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { Card, PageHeader, Pager } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { usePageAnchors } from '../../lib/page-anchors.ts';
import { useAdminOrdersQuery, useOrderFilterQuery } from './api.ts';
import { GatewayStats } from './GatewayStats.tsx';
import { OrderFilterForm } from './OrderFilterForm.tsx';
import { OrderTable } from './OrderTable.tsx';
import { type OrderFilters, type OrderParams, readOrderParams, writeOrderParams } from './order-params.ts';
import { UnmatchedSms } from './UnmatchedSms.tsx';

/**
 * /ordermanager (docs/product.md#screens-and-routes): per-gateway statistics, the phone/gateway/status
 * filters with Apply, the orders table and the numbered pager. Page and filters live in the URL (reload and
 * Back keep them).
 */
export function OrderManagerPage() {
  const { t, tn } = useI18n();
  const [searchParams, setSearchParams] = useSearchParams();
  const params = readOrderParams(searchParams);
  const filter = useOrderFilterQuery();
  const appliedKey = [params.phoneNumber, params.gateway, params.status].join('\u0000');
  const anchors = usePageAnchors(appliedKey);
  const orders = useAdminOrdersQuery(params, anchors.cursors);
  const listTop = useRef<HTMLDivElement>(null);

  // Rendered at once, not in a transition: a second click (Next twice) builds on the first's page.
  const go = (next: OrderParams, replace = false) =>
    setSearchParams((prev) => writeOrderParams(next, prev), { replace, flushSync: true });
  const apply = (f: OrderFilters) => go({ ...f, page: 1 });
  const changePage = (page: number) => {
    anchors.keep(orders.data);
    go({ ...params, page });
    // The pager sits under 100 rows: bring the top of the list into view (below the fixed top bar).
    const top = listTop.current;
    if (top && top.getBoundingClientRect().top < 64) top.scrollIntoView?.({ block: 'start' });
  };

  // A page beyond the last (an old link, or fewer orders now): show the last page instead.
  const lastPage = orders.data && !orders.isPlaceholderData ? orders.data.totalPages : undefined;
  useEffect(() => {
    if (lastPage !== undefined && params.page > lastPage) {
      setSearchParams((prev) => writeOrderParams({ ...params, page: lastPage }, prev), { replace: true });
    }
  }, [lastPage, params, setSearchParams]);

  const total = orders.data?.total;

  return (
    <>
      <PageHeader title={t('orders.title')} subtitle={t('orders.subtitle')} />

      <GatewayStats
        stats={filter.data?.groupPipeline}
        loading={filter.isFetching}
        error={filter.isError && !filter.data ? filter.error : undefined}
        onRetry={() => filter.refetch()}
      />

      <div ref={listTop} className="scroll-mt-18" />
      <Card
        flush
        title={t('orders.listTitle')}
        description={
          total === undefined
            ? undefined
            : orders.data?.totalEstimated
              ? t('common.about', { n: tn('orders.total', total) })
              : tn('orders.total', total)
        }
      >
        <OrderFilterForm
          key={appliedKey}
          applied={params}
          gateways={filter.data?.gateways ?? []}
          statuses={filter.data?.statuses ?? []}
          onApply={apply}
        />
        <OrderTable
          orders={orders.data?.items}
          loading={orders.isFetching}
          error={orders.isError && !orders.data ? orders.error : undefined}
          onRetry={() => orders.refetch()}
        />
        <div className="border-t border-line px-3">
          <Pager
            variant="numbered"
            page={params.page}
            totalPages={orders.data?.totalPages ?? 1}
            totalEstimated={orders.data?.totalEstimated}
            onPageChange={changePage}
          />
        </div>
      </Card>

      <UnmatchedSms />
    </>
  );
}

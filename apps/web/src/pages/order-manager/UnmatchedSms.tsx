import type { InboxSms } from '@simdock/contract';
import { Card, type Column, DataTable, Pager } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { usePageAnchors } from '../../lib/page-anchors.ts';
import { pageNumber, useSearchState } from '../../lib/useSearchState.ts';
import { useUnmatchedSmsQuery } from './api.ts';

// Its page in the URL beside the orders' own (`page`): a reload and Back show the same page.
const URL_DEFAULTS = { smsPage: '1' };

/**
 * Incoming SMS that matched no order: kept and shown here so nothing is lost (a code that came
 * after its order expired, a service whose text changed, messages nobody waited for).
 */
export function UnmatchedSms() {
  const { t } = useI18n();
  const [url, setUrl] = useSearchState(URL_DEFAULTS);
  const page = pageNumber(url.smsPage);
  const anchors = usePageAnchors('unmatched');
  const sms = useUnmatchedSmsQuery(page, anchors.cursors);
  const columns: Column<InboxSms>[] = [
    {
      key: 'receivedAt',
      header: t('orders.smsReceived'),
      className: 'whitespace-nowrap',
      cell: (m) => <time dateTime={m.receivedAt}>{formatDateTime(m.receivedAt)}</time>,
    },
    { key: 'gateway', header: t('orders.colGateway'), cell: (m) => m.gateway },
    { key: 'port', header: t('orders.colPort'), cellClassName: 'font-mono', cell: (m) => m.port },
    { key: 'sender', header: t('orders.smsSender'), cellClassName: 'font-mono', cell: (m) => m.sender },
    {
      key: 'text',
      header: t('orders.smsText'),
      cell: (m) => <span className="block max-w-xl break-words">{m.text}</span>,
    },
  ];
  return (
    <Card
      flush
      id="unmatched"
      title={t('orders.unmatchedTitle')}
      description={t('orders.unmatchedText')}
      className="mt-5"
    >
      <DataTable
        columns={columns}
        rows={sms.data?.items}
        rowKey={(m) => m.id}
        loading={sms.isFetching && !sms.data}
        error={sms.isError && !sms.data ? sms.error : undefined}
        errorTitle={t('orders.unmatchedFailed')}
        onRetry={() => sms.refetch()}
        phoneCards
        emptyText={t('orders.unmatchedEmpty')}
        caption={t('orders.unmatchedTitle')}
      />
      <div className="border-t border-line px-3">
        <Pager
          page={page}
          totalPages={sms.data?.totalPages ?? 1}
          totalEstimated={sms.data?.totalEstimated}
          onPageChange={(p) => {
            anchors.keep(sms.data);
            setUrl({ smsPage: String(p) });
          }}
          label={t('orders.unmatchedTitle')}
        />
      </div>
    </Card>
  );
}

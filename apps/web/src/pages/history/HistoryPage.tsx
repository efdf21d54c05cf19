import {
  HISTORY_DEFAULT_PAGE_SIZE,
  HISTORY_PAGE_SIZES,
  type HistoryRecord,
  historyTotalPages,
  plainReason,
  type QueryMsgBody,
} from '@simdock/contract';
import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { type ComponentProps, lazy, Suspense, useEffect, useState } from 'react';
import { type Control, useController, useForm } from 'react-hook-form';
import {
  Button,
  Card,
  type Column,
  DataTable,
  DateInput,
  ErrorState,
  FormField,
  notify,
  PageHeader,
  Pager,
  SkeletonLines,
  StatTile,
  StatusBadge,
} from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { failureText } from '../../lib/errors.ts';
import {
  formatDate,
  formatDateTime,
  formatMoney,
  formatNumber,
  formatPercent,
  formatPhone,
} from '../../lib/format.ts';
import { fieldErrorText, keyResolver } from '../../lib/forms.ts';
import { usePageAnchors } from '../../lib/page-anchors.ts';
import { pageNumber, useSearchState } from '../../lib/useSearchState.ts';
import { useSession } from '../../session/session.tsx';
import { dailyStatsQuery, useHistory } from './api.ts';
import { downloadText, fetchHistoryCsv } from './export-csv.ts';
import {
  dayBounds,
  presetOf,
  presetRange,
  RANGE_PRESETS,
  type RangePreset,
  rangeOfUrl,
} from './history-range.ts';

/** What the URL keeps (?preset or ?start&end, and page); no parameter: today. */
const URL_DEFAULTS = { preset: 'today', start: '', end: '', page: '1' };

const HistoryChart = lazy(() => import('./HistoryChart.tsx'));

interface Range {
  start: string;
  end: string;
}

/** The contract's range rule (the end not before the start), on the days as the server gets them. */
const rangeResolver = keyResolver<Range>((v) => {
  const bounds = dayBounds(v.start, v.end);
  return { end: bounds && bounds.endTime < bounds.strTime ? 'messaging.historyRangeInvalid' : undefined };
});

/**
 * /History, SMS History Stats (docs/product.md): start and end dates (today by default) and Apply; the
 * five tiles; Message Details with page sizes 10–500, Prev/Next and 'Page x / y' ('No Record' when
 * empty); each message's cost (struck through and marked Refunded when its money went back); Gateway
 * and Port only for Admin9; CSV export of the filtered records.
 */
export function HistoryPage() {
  const { t } = useI18n();
  const { isAdmin } = useSession();
  // The range in the URL (reload, a shared link and Back show the same days): a preset as its name,
  // so that "Last 7 days" follows the calendar; any other range as its days.
  const [url, setUrl] = useSearchState(URL_DEFAULTS);
  const range = rangeOfUrl(url);
  const current = pageNumber(url.page);
  const setCurrent = (p: number) => setUrl({ page: String(p) });
  const {
    control,
    handleSubmit,
    watch,
    reset,
    trigger,
    formState: { errors },
  } = useForm<Range>({ defaultValues: range, mode: 'onChange', resolver: rangeResolver });
  // A new range from the URL (Back, a preset) shows in the fields.
  useEffect(() => reset({ start: range.start, end: range.end }), [range.start, range.end, reset]);
  const draft = watch();
  const [size, setSize] = useState(HISTORY_DEFAULT_PAGE_SIZE);
  const [exporting, setExporting] = useState(false);
  const bounds = dayBounds(range.start, range.end);
  const params: QueryMsgBody['params'] = bounds ?? {};
  const anchors = usePageAnchors(JSON.stringify([params, size]));
  const history = useHistory({ current, size, params, ...anchors.cursors });
  const draftBounds = dayBounds(draft.start, draft.end);
  const rangeError = fieldErrorText(t, errors.end);
  const rangeBad = draftBounds !== null && draftBounds.endTime < draftBounds.strTime;
  // A failed load shows no figures of an earlier one: the page says it failed, with a retry.
  const sum = history.isError ? undefined : history.data?.data.sum;
  const daily = useQuery({
    ...dailyStatsQuery(bounds ?? { strTime: 0, endTime: 0 }),
    enabled: bounds !== null,
  });
  const days = daily.data?.data.days;
  const retryAll = () => Promise.all([history.refetch(), bounds ? daily.refetch() : null]);

  /** Shows `next`; the same range again loads it again (after a failure, Apply is the retry too). */
  const apply = (next: Range) => {
    if (!dayBounds(next.start, next.end)) return;
    if (next.start === range.start && next.end === range.end && current === 1) void retryAll();
    const preset = presetOf(next);
    // Days of their own win over the preset (rangeOfUrl): the preset parameter is then left out.
    setUrl(preset ? { preset, start: '', end: '', page: '1' } : { preset: 'today', ...next, page: '1' });
  };
  const choosePreset = (preset: RangePreset) => apply(presetRange(preset));
  const chosenPreset = presetOf(range);
  const pages = historyTotalPages(history.data?.data.total, sum?.numCnt, size);

  const statusOf = (r: HistoryRecord) =>
    r.status === 1 ? (
      <StatusBadge tone="green">{t('history.statusSuccess')}</StatusBadge>
    ) : r.status === 0 ? (
      <StatusBadge tone="red">{t('history.statusFailed')}</StatusBadge>
    ) : r.status === 3 ? (
      // The carrier took it; the handset's delivery report has not come (it may still fail).
      <StatusBadge tone="yellow">{t('history.statusSent')}</StatusBadge>
    ) : (
      <StatusBadge tone="grey">{t('history.statusPending')}</StatusBadge>
    );

  // A refunded message's cost stays visible, struck through, with the word that says why.
  const costOf = (r: HistoryRecord) =>
    r.refunded ? (
      <span className="inline-flex flex-wrap items-center justify-end gap-1.5">
        <s className="text-muted">{formatMoney(r.cost, { decimals: 4 })}</s>
        <StatusBadge tone="grey">{t('history.refunded')}</StatusBadge>
      </span>
    ) : (
      formatMoney(r.cost, { decimals: 4 })
    );

  const columns: Column<HistoryRecord>[] = [
    {
      key: 'time',
      header: t('history.colTime'),
      className: 'whitespace-nowrap',
      cellClassName: 'tabular text-muted',
      cell: (r) => formatDateTime(r.timestamp),
    },
    {
      key: 'receiver',
      header: t('history.colReceiver'),
      // A number never breaks across lines ("+1 310-" / "555-9911").
      cellClassName: 'font-mono text-xs whitespace-nowrap',
      cell: (r) => formatPhone(r.receiver),
    },
    {
      key: 'sms',
      header: t('history.colMessage'),
      cellClassName: 'max-w-[22rem] break-words',
      cell: (r) =>
        r.mms ? (
          <>
            <StatusBadge tone="grey">{t('history.mms')}</StatusBadge> {r.sms}
          </>
        ) : (
          r.sms
        ),
    },
    { key: 'sender', header: t('history.colSender'), cell: (r) => r.userAlias },
    { key: 'status', header: t('history.colStatus'), cell: statusOf },
    {
      key: 'cost',
      header: t('history.colCost'),
      align: 'right',
      className: 'whitespace-nowrap',
      cellClassName: 'tabular',
      cell: costOf,
    },
    {
      key: 'reason',
      header: t('history.colReason'),
      cellClassName: 'text-muted',
      cell: (r) => <ReasonCell text={r.statusReason} />,
    },
    ...(isAdmin
      ? ([
          { key: 'gateway', header: t('history.colGateway'), cell: (r) => r.smsGateway ?? '' },
          {
            key: 'port',
            header: t('history.colPort'),
            cellClassName: 'tabular whitespace-nowrap',
            cell: (r) => r.smsPort ?? '',
          },
        ] satisfies Column<HistoryRecord>[])
      : []),
  ];

  const exportCsv = async () => {
    setExporting(true);
    try {
      downloadText(`sms-history-${range.start}-to-${range.end}.csv`, await fetchHistoryCsv(params));
    } catch (err) {
      notify.error(t('history.exportFailed', { error: failureText(err, t) }));
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <PageHeader title={t('history.title')} subtitle={t('history.subtitle')} />
      <div className="flex flex-col gap-5">
        <Card>
          <fieldset className="mb-3 flex flex-wrap gap-2">
            <legend className="sr-only">{t('history.presets')}</legend>
            {RANGE_PRESETS.map((p) => (
              <Button
                key={p}
                size="sm"
                variant={chosenPreset === p ? 'primary' : 'secondary'}
                aria-pressed={chosenPreset === p}
                onClick={() => choosePreset(p)}
              >
                {t(`history.preset.${p}`)}
              </Button>
            ))}
          </fieldset>
          <form className="flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={handleSubmit(apply)}>
            <FormField label={t('history.start')}>
              {/* A new start can put the end before it: check the end again. */}
              <DayField control={control} name="start" onDay={() => void trigger('end')} />
            </FormField>
            <FormField label={t('history.end')} error={rangeError}>
              <DayField control={control} name="end" />
            </FormField>
            <Button type="submit" variant="primary" disabled={rangeBad || !draftBounds}>
              {t('history.apply')}
            </Button>
          </form>
          <p className="mt-3 text-[13px] text-muted" aria-live="polite">
            {range.start === range.end
              ? t('history.showingDay', { day: formatDate(`${range.start}T00:00:00`) })
              : t('history.showing', {
                  start: formatDate(`${range.start}T00:00:00`),
                  end: formatDate(`${range.end}T00:00:00`),
                })}
          </p>
        </Card>
        <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5">
          <StatTile label={t('history.total')} value={sum ? formatNumber(sum.numCnt) : '—'} />
          <StatTile label={t('history.success')} value={sum ? formatNumber(sum.success) : '—'} />
          <StatTile label={t('history.successRate')} value={sum ? formatPercent(sum.successRate) : '—'} />
          <StatTile label={t('history.repliedPeople')} value={sum ? formatNumber(sum.replyUserCnt) : '—'} />
          <StatTile label={t('history.replyRate')} value={sum ? formatPercent(sum.replyRate) : '—'} />
        </div>
        <Card title={t('history.chartTitle')}>
          {daily.isError ? (
            <ErrorState
              compact
              title={t('history.loadFailed')}
              error={daily.error}
              onRetry={() => daily.refetch()}
            />
          ) : !days ? (
            <SkeletonLines />
          ) : days.every((d) => d.sent === 0 && d.replies === 0) ? (
            <p className="py-6 text-center text-sm text-muted">{t('history.chartEmpty')}</p>
          ) : (
            <Suspense fallback={<SkeletonLines />}>
              <HistoryChart days={days} />
            </Suspense>
          )}
        </Card>
        <Card
          title={t('history.details')}
          flush
          actions={
            <Button
              size="sm"
              icon={<Download className="size-4" aria-hidden />}
              onClick={() => void exportCsv()}
              busy={exporting}
              busyLabel={t('history.exporting')}
              disabled={!sum || sum.numCnt === 0}
            >
              {t('history.export')}
            </Button>
          }
        >
          <DataTable
            caption={t('history.details')}
            columns={columns}
            rows={history.isError ? undefined : history.data?.data.records}
            rowKey={(r) => r.id}
            loading={history.isFetching}
            error={history.isError ? history.error : undefined}
            errorTitle={t('history.loadFailed')}
            onRetry={() => history.refetch()}
            emptyText={t('history.empty')}
            phoneCards
          />
          <div className="border-t border-line p-3">
            <Pager
              page={current}
              totalPages={pages}
              totalEstimated={history.data?.data.totalEstimated}
              onPageChange={(p) => {
                anchors.keep(history.data?.data);
                setCurrent(p);
              }}
              pageSize={size}
              pageSizes={HISTORY_PAGE_SIZES}
              onPageSizeChange={(s) => {
                setSize(s);
                setCurrent(1);
              }}
              disabled={history.isFetching}
            />
          </div>
        </Card>
      </div>
    </>
  );
}

/** A date field of the range form (FormField gives it its id and error wiring). */
function DayField({
  control,
  name,
  onDay,
  ...rest
}: { control: Control<Range>; name: keyof Range; onDay?: () => void } & Omit<
  ComponentProps<typeof DateInput>,
  'value' | 'onChange' | 'name'
>) {
  const { field } = useController({ control, name });
  return (
    <DateInput
      {...rest}
      ref={field.ref}
      value={field.value}
      onBlur={field.onBlur}
      onChange={(day) => {
        field.onChange(day);
        onDay?.();
      }}
    />
  );
}

/**
 * A failed message's reason: a plain sentence, with what the device said as its detail (opened on
 * demand, so that the table stays readable and the device's words are still there for support).
 */
function ReasonCell({ text }: { text: string | null }) {
  const { t } = useI18n();
  const reason = plainReason(text);
  if (!reason) return null;
  if (!reason.kind) return <>{reason.detail}</>;
  return (
    <details className="group">
      <summary className="cursor-pointer text-fg">{t(`history.reason.${reason.kind}`)}</summary>
      <p className="mt-1 text-xs">
        <span className="sr-only">{t('history.reasonDetail')}: </span>
        <span className="font-mono">{reason.detail}</span>
      </p>
    </details>
  );
}

import { AUDIT_KINDS, type AuditEntry, type AuditKind, USER_LIMITS } from '@simdock/contract';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { servicesQuery } from '../../api/orders.ts';
import {
  Button,
  Card,
  type Column,
  DataTable,
  DateInput,
  FormField,
  Input,
  PageHeader,
  Pager,
  Select,
} from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { codeLabel } from '../../lib/labels.ts';
import { usePageAnchors } from '../../lib/page-anchors.ts';
import { pageNumber, useSearchState } from '../../lib/useSearchState.ts';
import { type AuditParams, useAuditQuery } from './api.ts';
import { auditValue, changedFields, fieldLabel, targetText } from './audit-format.ts';

interface Filters {
  actor: string;
  kind: '' | AuditKind;
  from: string;
  to: string;
}
/** What the URL keeps (?actor&kind&from&to&page). */
const URL_DEFAULTS = { actor: '', kind: '', from: '', to: '', page: '1' };

const isKind = (k: string): k is AuditKind => (AUDIT_KINDS as readonly string[]).includes(k);

function toParams(f: Filters, page: number): AuditParams {
  return {
    ...(f.actor.trim() ? { actor: f.actor.trim().toLowerCase() } : {}),
    ...(f.kind ? { kind: f.kind } : {}),
    ...(f.from ? { from: f.from } : {}),
    ...(f.to ? { to: f.to } : {}),
    page,
  };
}

/**
 * /audit (Admin9): every admin action with who, what, before/after and when; filters and paging in the
 * URL (reload and Back keep them). Actions, fields and values show as people read them (audit-format.ts):
 * names, not codes; times in the app's format; "—" for nothing.
 */
export function AuditPage() {
  const { t } = useI18n();
  const [url, setUrl] = useSearchState(URL_DEFAULTS);
  const applied: Filters = {
    actor: url.actor,
    kind: isKind(url.kind) ? url.kind : '',
    from: url.from,
    to: url.to,
  };
  const page = pageNumber(url.page);
  const anchors = usePageAnchors([applied.actor, applied.kind, applied.from, applied.to].join('\u0000'));
  const audit = useAuditQuery({ ...toParams(applied, page), ...anchors.cursors });
  const kindLabel = (k: string) => codeLabel(t, 'audit.kind.', k);
  // Services by name: entries about a service carry its code.
  const services = useQuery({ ...servicesQuery, refetchInterval: false });
  const serviceName = (code: string) => services.data?.find((s) => s.code === code)?.name;
  const value = (field: string, v: unknown) => auditValue(t, field, v, serviceName);

  const columns: Column<AuditEntry>[] = [
    {
      key: 'at',
      header: t('audit.colWhen'),
      className: 'whitespace-nowrap',
      cellClassName: 'tabular text-muted',
      cell: (e) => formatDateTime(e.at),
    },
    {
      key: 'who',
      header: t('audit.colWho'),
      cell: (e) => <span className="font-medium">{e.actorName}</span>,
    },
    {
      key: 'kind',
      header: t('audit.colAction'),
      cell: (e) => <span data-code={e.kind}>{kindLabel(e.kind)}</span>,
    },
    { key: 'target', header: t('audit.colTarget'), cell: (e) => targetText(t, e, serviceName) },
    {
      key: 'change',
      header: t('audit.colChange'),
      cell: (e) => (
        <ul className="space-y-0.5 text-xs text-muted">
          {changedFields(e.before, e.after).map((c) => (
            <li key={c.field} className="break-words">
              <span className="text-fg">{fieldLabel(t, c.field)}</span>
              {': '}
              {'before' in c
                ? `${value(c.field, c.before)} → ${value(c.field, c.after)}`
                : value(c.field, c.after)}
            </li>
          ))}
        </ul>
      ),
    },
  ];

  const apply = (f: Filters) =>
    setUrl({ actor: f.actor.trim(), kind: f.kind, from: f.from, to: f.to, page: '1' });

  return (
    <>
      <PageHeader
        title={t('audit.title')}
        subtitle={t('audit.subtitle')}
        count={audit.data?.total}
        countEstimated={audit.data?.totalEstimated}
      />
      <Card flush>
        <AuditFilterForm
          // A new URL (Back, a link) starts the form from the filters it names.
          key={[applied.actor, applied.kind, applied.from, applied.to].join('\u0000')}
          applied={applied}
          kindLabel={kindLabel}
          onApply={apply}
        />
        <DataTable
          caption={t('audit.tableCaption')}
          columns={columns}
          rows={audit.data?.entries}
          rowKey={(e) => e.id}
          loading={audit.isFetching}
          error={audit.isError && !audit.data ? audit.error : undefined}
          errorTitle={t('audit.loadFailedTitle')}
          onRetry={() => audit.refetch()}
          emptyText={t('audit.empty')}
          phoneCards
        />
        <div className="border-t border-line p-3">
          <Pager
            page={audit.data?.page ?? page}
            totalPages={audit.data?.totalPages ?? 1}
            totalEstimated={audit.data?.totalEstimated}
            onPageChange={(p) => {
              anchors.keep(audit.data);
              setUrl({ page: String(p) });
            }}
            disabled={audit.isFetching}
          />
        </div>
      </Card>
    </>
  );
}

const NO_FILTERS: Filters = { actor: '', kind: '', from: '', to: '' };

function AuditFilterForm({
  applied,
  kindLabel,
  onApply,
}: {
  applied: Filters;
  kindLabel: (k: string) => string;
  onApply: (f: Filters) => void;
}) {
  const { t } = useI18n();
  const { register, handleSubmit, reset, watch, setValue } = useForm<Filters>({ defaultValues: applied });
  return (
    <form
      className="grid grid-cols-1 gap-3 border-b border-line p-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end"
      onSubmit={handleSubmit(onApply)}
    >
      <FormField label={t('audit.filterActor')}>
        <Input maxLength={USER_LIMITS.username} {...register('actor')} />
      </FormField>
      <FormField label={t('audit.filterKind')}>
        <Select {...register('kind')}>
          <option value="">{t('audit.allKinds')}</option>
          {AUDIT_KINDS.map((k) => (
            <option key={k} value={k}>
              {kindLabel(k)}
            </option>
          ))}
        </Select>
      </FormField>
      {/* Days in the app's date format (a native date field shows the browser's). */}
      <FormField label={t('audit.filterFrom')}>
        <DateInput value={watch('from')} onChange={(day) => setValue('from', day)} />
      </FormField>
      <FormField label={t('audit.filterTo')}>
        <DateInput value={watch('to')} onChange={(day) => setValue('to', day)} />
      </FormField>
      <div className="flex gap-2">
        <Button type="submit" variant="primary">
          {t('audit.apply')}
        </Button>
        <Button
          onClick={() => {
            reset(NO_FILTERS);
            onApply(NO_FILTERS);
          }}
        >
          {t('audit.reset')}
        </Button>
      </div>
    </form>
  );
}

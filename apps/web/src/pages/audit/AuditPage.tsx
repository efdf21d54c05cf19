import { AUDIT_KINDS, type AuditEntry, type AuditKind, USER_LIMITS } from '@simdock/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../api/client.ts';
import {
  Button,
  Card,
  type Column,
  DataTable,
  FormField,
  Input,
  PageHeader,
  Pager,
  Select,
} from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { type AuditParams, useAuditQuery } from './api.ts';
import { describeChange } from './audit-format.ts';

interface Filters {
  actor: string;
  kind: '' | AuditKind;
  from: string;
  to: string;
}
const NO_FILTERS: Filters = { actor: '', kind: '', from: '', to: '' };

function toParams(f: Filters, page: number): AuditParams {
  return {
    ...(f.actor.trim() ? { actor: f.actor.trim().toLowerCase() } : {}),
    ...(f.kind ? { kind: f.kind } : {}),
    ...(f.from ? { from: f.from } : {}),
    ...(f.to ? { to: f.to } : {}),
    page,
  };
}

/** /audit (Admin9): every admin action with who, what, before/after and when; filters and paging. */
export function AuditPage() {
  const { t } = useI18n();
  const { register, handleSubmit, reset } = useForm<Filters>({ defaultValues: NO_FILTERS });
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const audit = useAuditQuery(toParams(applied, page));

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
    { key: 'kind', header: t('audit.colAction'), cellClassName: 'font-mono text-xs', cell: (e) => e.kind },
    { key: 'target', header: t('audit.colTarget'), cell: (e) => e.targetLabel || e.targetId || '—' },
    {
      key: 'change',
      header: t('audit.colChange'),
      cell: (e) => (
        <ul className="space-y-0.5 text-xs text-muted">
          {describeChange(e.before, e.after).map((line) => (
            <li key={line} className="break-words">
              {line}
            </li>
          ))}
        </ul>
      ),
    },
  ];

  const apply = (filters: Filters) => {
    setApplied(filters);
    setPage(1);
  };

  return (
    <>
      <PageHeader title={t('audit.title')} subtitle={t('audit.subtitle')} count={audit.data?.total} />
      <Card flush>
        <form
          className="grid grid-cols-1 gap-3 border-b border-line p-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end"
          onSubmit={handleSubmit(apply)}
        >
          <FormField label={t('audit.filterActor')}>
            <Input maxLength={USER_LIMITS.username} {...register('actor')} />
          </FormField>
          <FormField label={t('audit.filterKind')}>
            <Select {...register('kind')}>
              <option value="">{t('audit.allKinds')}</option>
              {AUDIT_KINDS.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField label={t('audit.filterFrom')}>
            <Input type="date" {...register('from')} />
          </FormField>
          <FormField label={t('audit.filterTo')}>
            <Input type="date" {...register('to')} />
          </FormField>
          <div className="flex gap-2">
            <Button type="submit" variant="primary">
              {t('audit.apply')}
            </Button>
            <Button
              onClick={() => {
                reset(NO_FILTERS);
                apply(NO_FILTERS);
              }}
            >
              {t('audit.reset')}
            </Button>
          </div>
        </form>
        <DataTable
          caption={t('audit.tableCaption')}
          columns={columns}
          rows={audit.data?.entries}
          rowKey={(e) => e.id}
          loading={audit.isFetching}
          error={audit.isError ? t('audit.loadFailed', { error: errorMessage(audit.error) }) : undefined}
          emptyText={t('audit.empty')}
        />
        <div className="border-t border-line p-3">
          <Pager
            page={audit.data?.page ?? page}
            totalPages={audit.data?.totalPages ?? 1}
            onPageChange={setPage}
            disabled={audit.isFetching}
          />
        </div>
      </Card>
    </>
  );
}

import type { Service } from '@simdock/contract';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { AddButton, Card, ConfirmDialog, notify, PageHeader, SearchInput } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { useSearchState } from '../../lib/useSearchState.ts';
import { useAdminServicesQuery, useDeleteServiceMutation, useSpentCountsQuery } from './api.ts';
import { PricesDialog } from './PricesDialog.tsx';
import { ServiceFormModal } from './ServiceFormModal.tsx';
import { ServiceTable } from './ServiceTable.tsx';
import { SpentNumbersDialog } from './SpentNumbersDialog.tsx';
import { filterServices } from './service-form.ts';

type Editing = { service?: Service } | null;
const URL_DEFAULTS = { q: '' };

/**
 * /servicemanager (docs/product.md#screens-and-routes): search by name, code or description; '+ Add Service';
 * the services table; the Add/Edit modal; the delete confirmation; a service's spent numbers; its prices by country. The list
 * refreshes after every change.
 */
export function ServiceManagerPage() {
  const { t } = useI18n();
  const services = useAdminServicesQuery();
  const remove = useDeleteServiceMutation();
  // The search lives in the URL (?q): reload and Back keep it; typing replaces the entry, not stacking.
  const [url, setUrl] = useSearchState(URL_DEFAULTS);
  const query = url.q;
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Service | null>(null);
  const [spentOf, setSpentOf] = useState<Service | null>(null);
  const [pricesOf, setPricesOf] = useState<Service | null>(null);
  const spentCounts = useSpentCountsQuery();

  const rows = useMemo(
    () => (services.data ? filterServices(services.data, query) : undefined),
    [services.data, query],
  );

  const askDelete = (s: Service) => {
    remove.reset();
    setDeleting(s);
  };
  const confirmDelete = () => {
    if (!deleting) return;
    const { id, name } = deleting;
    remove.mutate(id, {
      onSuccess: () => {
        setDeleting(null);
        notify.success(t('services.deleted', { name }));
      },
    });
  };

  return (
    <>
      <PageHeader
        title={t('services.title')}
        subtitle={t('services.subtitle')}
        count={services.data?.length}
        actions={<AddButton onClick={() => setEditing({})}>{t('services.add')}</AddButton>}
      />

      <Card flush>
        <div className="border-b border-line p-3">
          <SearchInput
            className="sm:max-w-sm"
            value={query}
            onChange={(e) => setUrl({ q: e.target.value }, { replace: true })}
            placeholder={t('services.searchPlaceholder')}
            aria-label={t('services.search')}
          />
        </div>
        <ServiceTable
          services={rows}
          loading={services.isFetching}
          error={services.isError && !services.data ? services.error : undefined}
          onRetry={() => services.refetch()}
          onEdit={(s) => setEditing({ service: s })}
          onDelete={askDelete}
          spentCounts={spentCounts.data}
          onSpent={setSpentOf}
          onPrices={setPricesOf}
        />
      </Card>

      {editing ? (
        <ServiceFormModal
          service={editing.service}
          onClose={() => setEditing(null)}
          onSaved={(saved, created) => {
            setEditing(null);
            notify.success(t(created ? 'services.created' : 'services.updated', { name: saved.name }));
          }}
        />
      ) : null}

      {pricesOf ? <PricesDialog service={pricesOf} onClose={() => setPricesOf(null)} /> : null}

      {spentOf ? <SpentNumbersDialog service={spentOf} onClose={() => setSpentOf(null)} /> : null}

      <ConfirmDialog
        open={deleting !== null}
        title={t('services.deleteTitle')}
        message={deleting ? t('services.deleteConfirm', { name: deleting.name }) : undefined}
        confirmLabel={t('services.delete')}
        busy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : undefined}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}

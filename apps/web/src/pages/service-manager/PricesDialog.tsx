import {
  countryFlag,
  countryName,
  rentalPriceOk,
  type Service,
  type ServiceCountryPrice,
  TEXT_LIMITS,
} from '@simdock/contract';
import { Pencil, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiError, errorMessage } from '../../api/client.ts';
import { CountryLabel } from '../../components/CountryLabel.tsx';
import {
  Button,
  type Column,
  DataTable,
  FormField,
  Input,
  Modal,
  Notice,
  notify,
  RowActions,
} from '../../components/index.ts';
import { MoneyInput } from '../../components/MoneyInput.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { countryList } from '../../lib/countries.ts';
import { formatMoney } from '../../lib/format.ts';
import { fieldErrorText, keyResolver } from '../../lib/forms.ts';
import { useServicePricesQuery, useSetServicePriceMutation } from './api.ts';

export interface PriceValues {
  country: string;
  operator: string;
  price: string;
}
const EMPTY: PriceValues = { country: '', operator: '', price: '' };

/** The form's rules, the contract's: a two-letter code, a price above 0 with two decimals at most. */
export const priceResolver = keyResolver<PriceValues>((v) => ({
  country: /^[A-Za-z]{2}$/.test(v.country.trim()) ? undefined : 'services.pricesCountryInvalid',
  price:
    /^\d{1,7}(\.\d{1,2})?$/.test(v.price.trim()) && rentalPriceOk(Number(v.price))
      ? undefined
      : 'services.pricesPriceInvalid',
}));

/** The grid's rows by country name, then the country's own price before its operators'. */
export function sortedPrices(rows: readonly ServiceCountryPrice[], lang: string): ServiceCountryPrice[] {
  return [...rows].sort(
    (a, b) =>
      countryName(a.country, lang).localeCompare(countryName(b.country, lang), lang) ||
      (a.operator ?? '').localeCompare(b.operator ?? '', lang),
  );
}

/**
 * Service Manager → a service's rental prices per country (and per operator of a country): the
 * service's own price for every other country, the grid with Edit and Remove, and a form that adds
 * or changes one. A change applies to new orders only.
 */
export function PricesDialog({
  service,
  onClose,
}: {
  service: Pick<Service, 'id' | 'name' | 'price'>;
  onClose: () => void;
}) {
  const { t, lang } = useI18n();
  const prices = useServicePricesQuery(service.id);
  const save = useSetServicePriceMutation();
  const listId = useId();
  const [editing, setEditing] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors },
  } = useForm<PriceValues>({ defaultValues: EMPTY, resolver: priceResolver });
  const typed = watch('country').trim().toUpperCase();
  const typedName = /^[A-Z]{2}$/.test(typed) ? countryName(typed, lang) : undefined;

  const serverError = (err: unknown) => {
    if (
      err instanceof ApiError &&
      (err.field === 'country' || err.field === 'price' || err.field === 'operator')
    )
      setError(err.field, { type: 'server', message: err.message }, { shouldFocus: true });
  };
  const submit = handleSubmit((v) => {
    const country = v.country.trim().toUpperCase();
    save.mutate(
      { serviceId: service.id, country, operator: v.operator.trim() || null, price: v.price.trim() },
      {
        onSuccess: () => {
          reset(EMPTY);
          setEditing(false);
          notify.success(t('services.pricesSaved', { country: countryName(country, lang) }));
        },
        onError: serverError,
      },
    );
  });
  const remove = (p: ServiceCountryPrice) =>
    save.mutate(
      { serviceId: service.id, country: p.country, operator: p.operator, price: null },
      {
        onSuccess: () =>
          notify.success(t('services.pricesRemoved', { country: countryName(p.country, lang) })),
        onError: (err) => notify.error(t('services.pricesSaveFailed'), errorMessage(err)),
      },
    );
  const edit = (p: ServiceCountryPrice) => {
    save.reset();
    setEditing(true);
    reset({ country: p.country, operator: p.operator ?? '', price: p.price.toFixed(2) });
  };
  const banner =
    save.isError && !(save.error instanceof ApiError && save.error.field)
      ? errorMessage(save.error)
      : undefined;

  const columns: Column<ServiceCountryPrice>[] = [
    {
      key: 'country',
      header: t('services.pricesColCountry'),
      cell: (p) => <CountryLabel iso={p.country} />,
    },
    {
      key: 'operator',
      header: t('services.pricesColOperator'),
      cell: (p) => p.operator ?? <span className="text-muted">{t('services.pricesAllOperators')}</span>,
    },
    {
      key: 'price',
      header: t('services.pricesColPrice'),
      align: 'right',
      cell: (p) => <span className="tabular">{formatMoney(p.price)}</span>,
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('services.colActions')}</span>,
      align: 'right',
      cell: (p) => (
        <RowActions
          name={`${countryName(p.country, lang)} ${p.operator ?? ''}`.trim()}
          className="flex-nowrap"
          actions={[
            {
              key: 'edit',
              label: t('services.pricesEdit'),
              icon: <Pencil className="size-3.5" aria-hidden />,
              onSelect: () => edit(p),
            },
            {
              key: 'remove',
              label: t('services.pricesRemove'),
              icon: <Trash2 className="size-3.5" aria-hidden />,
              destructive: true,
              onSelect: () => remove(p),
            },
          ]}
        />
      ),
    },
  ];

  return (
    <Modal
      open
      title={t('services.pricesTitle', { name: service.name })}
      onClose={onClose}
      size="lg"
      footer={<Button onClick={onClose}>{t('common.close')}</Button>}
    >
      <div className="flex flex-col gap-4">
        <p className="text-sm text-muted">{t('services.pricesNote')}</p>
        <p className="flex items-baseline justify-between gap-3 rounded-md border border-line px-3 py-2 text-sm">
          <span>{t('services.pricesDefault')}</span>
          <span className="font-medium tabular">{formatMoney(prices.data?.price ?? service.price)}</span>
        </p>
        <DataTable
          caption={t('services.pricesCaption')}
          columns={columns}
          rows={prices.data ? sortedPrices(prices.data.prices, lang) : undefined}
          rowKey={(p) => `${p.country}|${p.operator ?? ''}`}
          loading={prices.isPending}
          error={prices.isError ? prices.error : undefined}
          errorTitle={t('services.pricesLoadFailed')}
          onRetry={() => prices.refetch()}
          emptyText={t('services.pricesEmpty')}
          phoneCards
        />
        <form
          className="flex flex-col gap-3 rounded-md border border-line p-3"
          onSubmit={(e) => {
            e.preventDefault();
            e.stopPropagation();
            void submit();
          }}
          noValidate
        >
          <h3 className="text-sm font-semibold">
            {editing ? t('services.pricesEditing') : t('services.pricesAdd')}
          </h3>
          <div className="grid gap-3 sm:grid-cols-[8rem_1fr_9rem]">
            <FormField
              label={t('services.pricesCountry')}
              hint={
                typedName === undefined ? (
                  t('services.pricesCountryHint')
                ) : typedName === typed ? (
                  <span className="text-warn">{t('services.pricesUnknownCountry')}</span>
                ) : (
                  `${countryFlag(typed)} ${typedName}`
                )
              }
              error={fieldErrorText(t, errors.country)}
            >
              <Input
                className="font-mono uppercase"
                autoComplete="off"
                maxLength={8}
                list={listId}
                {...register('country')}
              />
            </FormField>
            <FormField
              label={t('services.pricesOperator')}
              hint={t('services.pricesOperatorHint')}
              error={fieldErrorText(t, errors.operator)}
            >
              <Input autoComplete="off" maxLength={TEXT_LIMITS.operator} {...register('operator')} />
            </FormField>
            <FormField label={t('services.pricesPrice')} error={fieldErrorText(t, errors.price)}>
              <MoneyInput decimals={2} {...register('price')} />
            </FormField>
          </div>
          <datalist id={listId}>
            {countryList(lang).map((c) => (
              <option key={c.code} value={c.code} label={c.name} />
            ))}
          </datalist>
          {banner ? (
            <Notice tone="error" title={t('services.pricesSaveFailed')}>
              {banner}
            </Notice>
          ) : null}
          <div className="flex justify-end gap-2">
            {editing ? (
              <Button
                onClick={() => {
                  reset(EMPTY);
                  setEditing(false);
                }}
              >
                {t('common.cancel')}
              </Button>
            ) : null}
            <Button type="submit" variant="primary" busy={save.isPending}>
              {t('services.pricesSave')}
            </Button>
          </div>
        </form>
      </div>
    </Modal>
  );
}

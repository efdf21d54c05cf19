import { countryFlag, countryName, type PublicService, TEXT_LIMITS } from '@simdock/contract';
import { Search } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button, Card, type Column, DataTable, Input, Select } from '../../components/index.ts';
import { notify } from '../../components/toast.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { formatMoney, formatNumber, formatPhone } from '../../lib/format.ts';
import { useCountries, useRentMutation, useServices } from './api.ts';
import { useCountryChoice } from './country-choice.ts';
import { focusRentalCard } from './RentalCards.tsx';

/** Case-insensitive match on name, code or description. Pure, for the search box. */
export function filterServices(services: PublicService[], query: string): PublicService[] {
  const q = query.trim().toLowerCase();
  if (!q) return services;
  return services.filter((s) =>
    [s.name, s.code, s.description].some((field) => field.toLowerCase().includes(q)),
  );
}

/** The searchable service list with a Rent button per service. */
export function ServiceList() {
  const { t, tn, lang } = useI18n();
  const [country, setCountry] = useCountryChoice();
  const countries = useCountries();
  const services = useServices(country);
  const rent = useRentMutation();
  const { register, handleSubmit, watch, setFocus } = useForm<{ query: string }>({
    defaultValues: { query: '' },
  });
  const query = watch('query');
  const navigate = useNavigate();
  const [renting, setRenting] = useState<string>();

  // The list filters as you type; the Search button keeps the box in use (the focus goes back to it).
  const shown = useMemo(() => filterServices(services.data ?? [], query), [services.data, query]);
  const onSearch = handleSubmit(() => setFocus('query'));

  // The result shows as a toast where the user is looking, and the new number's card, pinned at the
  // top, takes the focus (the keyboard goes on from there, not from the page's start).
  const onRent = (s: PublicService) => {
    setRenting(s.code);
    rent.mutate(country ? { serviceCode: s.code, country } : { serviceCode: s.code }, {
      onSuccess: (order) => {
        focusRentalCard(order.id);
        notify.success(t('dashboard.rented', { phone: formatPhone(order.phoneNumber), service: s.name }));
      },
      onError: (err) => {
        const text = t('dashboard.rentFailed', { msg: errorMessage(err) });
        if ((err as { status?: number }).status === 402)
          notify.topUp(text, t('userInfo.topUp'), () => navigate('/topup'));
        else notify.error(text);
      },
      onSettled: () => setRenting(undefined),
    });
  };

  const columns: Column<PublicService>[] = [
    {
      key: 'name',
      header: t('dashboard.colService'),
      cell: (s) => (
        <div>
          <div className="font-medium text-fg">{s.name}</div>
          {s.description ? <div className="text-xs text-muted">{s.description}</div> : null}
        </div>
      ),
    },
    {
      key: 'price',
      header: t('dashboard.colPrice'),
      align: 'right',
      cell: (s) => <span className="tabular">{formatMoney(s.price)}</span>,
    },
    {
      key: 'available',
      // Allowed to wrap: a long header (Vietnamese) must not push Rent out of a phone's view.
      header: <span className="whitespace-normal">{t('dashboard.colAvailable')}</span>,
      align: 'right',
      cell: (s) => (
        <span className={s.available > 0 ? 'tabular text-fg' : 'tabular text-bad'}>
          {formatNumber(s.available)}
        </span>
      ),
    },
    {
      key: 'rentTime',
      header: t('dashboard.colRentTime'),
      align: 'right',
      className: 'hidden whitespace-nowrap sm:table-cell',
      cell: (s) => t('dashboard.minutes', { n: s.rentTimeMinutes }),
    },
    {
      key: 'rent',
      header: <span className="sr-only">{t('dashboard.rent')}</span>,
      align: 'right',
      cell: (s) => (
        <Button
          variant="primary"
          size="sm"
          busy={renting === s.code}
          busyLabel={t('dashboard.renting')}
          disabled={s.available <= 0 || (renting !== undefined && renting !== s.code)}
          aria-label={t('dashboard.rentService', { service: s.name })}
          onClick={() => onRent(s)}
        >
          {t('dashboard.rent')}
        </Button>
      ),
    },
  ];

  return (
    <Card title={t('dashboard.servicesTitle')} description={t('dashboard.servicesText')} flush id="services">
      <search>
        <form onSubmit={onSearch} className="flex gap-2 px-4 py-3">
          <label htmlFor="service-search" className="sr-only">
            {t('dashboard.searchLabel')}
          </label>
          <Input
            id="service-search"
            type="search"
            placeholder={t('dashboard.searchPlaceholder')}
            maxLength={TEXT_LIMITS.filter}
            className="max-w-sm"
            {...register('query')}
          />
          <Button type="submit" icon={<Search className="size-4" />}>
            {t('dashboard.searchButton')}
          </Button>
        </form>
      </search>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 pb-3">
        <label htmlFor="service-country" className="text-[13px] font-medium text-fg">
          {t('dashboard.country')}
        </label>
        <Select
          id="service-country"
          className="w-auto max-w-full"
          value={country ?? ''}
          onChange={(e) => setCountry(e.target.value || undefined)}
        >
          <option value="">{t('dashboard.allCountries')}</option>
          {/* A remembered country without SIMs today stays choosable (and shows none available). */}
          {country && !countries.data?.countries.some((c) => c.country === country) ? (
            <option value={country}>{`${countryFlag(country)} ${countryName(country, lang)}`}</option>
          ) : null}
          {countries.data?.countries.map((c) => (
            <option key={c.country} value={c.country}>
              {tn('dashboard.countryOption', c.sims, {
                flag: countryFlag(c.country),
                name: countryName(c.country, lang),
              })}
            </option>
          ))}
        </Select>
        {country ? (
          <span className="text-xs text-muted">
            {t('dashboard.countryPrices', { name: countryName(country, lang) })}
          </span>
        ) : null}
      </div>
      <DataTable
        columns={columns}
        rows={services.data ? shown : undefined}
        rowKey={(s) => s.id}
        loading={services.isLoading}
        error={services.isError && !services.data ? services.error : undefined}
        errorTitle={t('dashboard.servicesError')}
        onRetry={() => services.refetch()}
        emptyText={t('dashboard.noServices')}
        caption={t('dashboard.servicesTitle')}
      />
    </Card>
  );
}

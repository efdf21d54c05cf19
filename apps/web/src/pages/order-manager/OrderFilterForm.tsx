import { TEXT_LIMITS } from '@simdock/contract';
import { Filter } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Button, FormField, Input, orderStatusName, Select } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { hasFilters, NO_FILTERS, type OrderFilters, optionsWith } from './order-params.ts';

export interface OrderFilterFormProps {
  /** The filters in force (from the URL); the form starts from them. Remount it (key) when they change. */
  applied: OrderFilters;
  gateways: readonly string[];
  statuses: readonly string[];
  onApply: (filters: OrderFilters) => void;
}

/**
 * Phone, gateway and status filters (docs/product.md#screens-and-routes). Nothing changes until Apply (or
 * Enter).
 */
export function OrderFilterForm({ applied, gateways, statuses, onApply }: OrderFilterFormProps) {
  const { t } = useI18n();
  const { register, handleSubmit, watch } = useForm<OrderFilters>({ defaultValues: applied });
  const [gateway, status] = watch(['gateway', 'status']);
  return (
    <form
      aria-label={t('orders.filters')}
      noValidate
      onSubmit={handleSubmit((v) => onApply({ ...v, phoneNumber: v.phoneNumber.trim() }))}
      className="flex flex-wrap items-end gap-3 border-b border-line p-3"
    >
      <FormField label={t('orders.filterPhone')} className="w-full sm:w-48">
        <Input
          type="search"
          inputMode="numeric"
          autoComplete="off"
          className="font-mono"
          placeholder={t('orders.filterPhonePlaceholder')}
          maxLength={TEXT_LIMITS.filter}
          {...register('phoneNumber')}
        />
      </FormField>
      <FormField label={t('orders.filterGateway')} className="w-full sm:w-48">
        <Select {...register('gateway')}>
          <option value="">{t('orders.all')}</option>
          {optionsWith(gateways, gateway).map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField label={t('orders.filterStatus')} className="w-full sm:w-40">
        <Select {...register('status')}>
          <option value="">{t('orders.all')}</option>
          {optionsWith(statuses, status).map((s) => (
            <option key={s} value={s}>
              {orderStatusName(s, t)}
            </option>
          ))}
        </Select>
      </FormField>
      <div className="flex gap-2">
        <Button type="submit" variant="primary" icon={<Filter className="size-4" aria-hidden />}>
          {t('orders.apply')}
        </Button>
        {hasFilters(applied) ? (
          <Button variant="ghost" onClick={() => onApply(NO_FILTERS)}>
            {t('orders.clear')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

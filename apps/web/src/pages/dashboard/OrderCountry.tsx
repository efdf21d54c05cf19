import { countryFlag, countryName } from '@simdock/contract';
import { useI18n } from '../../i18n/index.tsx';

/** The flag of the number's country, named for screen readers and on hover; nothing for older orders. */
export function OrderCountry({ country }: { country?: string | null | undefined }) {
  const { t, lang } = useI18n();
  const flag = country ? countryFlag(country) : '';
  if (!country || !flag) return null;
  const label = t('dashboard.orderCountry', { name: countryName(country, lang) });
  return (
    <span role="img" aria-label={label} title={label} className="mr-1.5" data-testid="order-country">
      {flag}
    </span>
  );
}

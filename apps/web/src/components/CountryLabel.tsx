import { countryFlag, countryName } from '@simdock/contract';
import { useI18n } from '../i18n/index.tsx';
import { cx } from '../lib/cx.ts';

/** A country as flag and name in the app's language ("🇩🇪 Germany"); the flag is decoration. */
export function CountryLabel({ iso, className }: { iso: string; className?: string }) {
  const { lang } = useI18n();
  const flag = countryFlag(iso);
  return (
    <span className={cx('inline-flex items-center gap-1.5 whitespace-nowrap', className)}>
      {flag ? <span aria-hidden>{flag}</span> : null}
      <span>{countryName(iso, lang)}</span>
    </span>
  );
}

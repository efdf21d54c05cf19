import { countryFlag, countryName } from '@simdock/contract';
import { useI18n } from '../i18n/index.tsx';
import { cx } from '../lib/cx.ts';

/**
 * A country as flag and name in the app's language ("🇩🇪 Germany"); the flag is decoration. `wrap`
 * lets a long name break between words (a narrow column).
 */
export function CountryLabel({ iso, className, wrap }: { iso: string; className?: string; wrap?: boolean }) {
  const { lang } = useI18n();
  const flag = countryFlag(iso);
  return (
    <span
      className={cx(
        'inline-flex gap-1.5',
        wrap ? 'items-baseline' : 'items-center whitespace-nowrap',
        className,
      )}
    >
      {flag ? <span aria-hidden>{flag}</span> : null}
      <span>{countryName(iso, lang)}</span>
    </span>
  );
}

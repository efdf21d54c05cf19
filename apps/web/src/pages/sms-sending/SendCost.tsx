import { countryFlag, countryName, type RefusedDestination, unitsText } from '@simdock/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Notice } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { formatMoney, formatNumber } from '../../lib/format.ts';
import type { CostPreview, CountryGroup } from './send-cost.ts';

/** An amount in ten-thousandths as the page shows money; `value` keeps the exact amount for machines. */
function Money({ units, className }: { units: number; className?: string }) {
  const exact = unitsText(units);
  return (
    <data value={exact} className={className}>
      {formatMoney(exact, { decimals: 4 })}
    </data>
  );
}

/** One term of the cost summary: the label above its value (beside it on a phone). */
function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3 sm:flex-col sm:justify-start sm:gap-0.5">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="text-right tabular text-fg sm:text-left">{children}</dd>
    </div>
  );
}

/** A destination as people read it: its flag and its name in the page's language. */
function Country({ country }: { country: string | null }) {
  const { t, lang } = useI18n();
  if (country === null) return <>{t('sending.noCountry')}</>;
  return (
    <>
      <span aria-hidden className="mr-1.5">
        {countryFlag(country)}
      </span>
      {countryName(country, lang)}
    </>
  );
}

/** The send by destination country: messages, segments and cost of each. */
function CountryTable({ groups }: { groups: readonly CountryGroup[] }) {
  const { t } = useI18n();
  return (
    <table data-testid="send-cost-countries" className="w-full text-sm tabular">
      <caption className="sr-only">{t('sending.byCountry')}</caption>
      <thead>
        <tr className="text-left text-xs text-muted">
          <th scope="col" className="py-1 pr-2 font-normal">
            {t('sending.countryHeader')}
          </th>
          <th scope="col" className="py-1 pr-2 text-right font-normal">
            {t('sending.messagesHeader')}
          </th>
          <th scope="col" className="py-1 pr-2 text-right font-normal">
            {t('sending.segmentsHeader')}
          </th>
          <th scope="col" className="py-1 text-right font-normal">
            {t('sending.costHeader')}
          </th>
        </tr>
      </thead>
      <tbody>
        {groups.map((g) => (
          <tr key={g.country ?? ''} className="border-t border-line">
            <th scope="row" className="py-1 pr-2 text-left font-normal text-fg">
              <span className="whitespace-nowrap">
                <Country country={g.country} />
              </span>
              {g.enabled ? null : (
                // Under the name on a phone, beside it from sm up.
                <span className="block text-xs font-medium whitespace-nowrap text-bad sm:ml-2 sm:inline">
                  {t('sending.countryOff')}
                </span>
              )}
            </th>
            <td className="py-1 pr-2 text-right">{formatNumber(g.messages)}</td>
            <td className="py-1 pr-2 text-right">{formatNumber(g.segments)}</td>
            <td className="py-1 text-right">
              <Money units={g.cost} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Recipients in countries the operator does not send to: the server would refuse the whole send, so
 * the page says which before Start Mass Send (which waits until they are removed).
 */
export function RefusedCountries({ refused, id }: { refused: readonly RefusedDestination[]; id: string }) {
  const { t, lang } = useI18n();
  if (refused.length === 0) return null;
  const names = refused.map(
    (r) =>
      `${r.country === null ? t('sending.noCountry') : countryName(r.country, lang)} (${formatNumber(r.count)})`,
  );
  return (
    <div id={id} data-testid="refused-countries">
      <Notice tone="error" title={t('sending.countriesOffTitle')}>
        {t('sending.countriesOff', {
          countries: new Intl.ListFormat(lang, { type: 'conjunction' }).format(names),
        })}
      </Notice>
    </div>
  );
}

/** The link to the Top up page, shown where the balance is too low. */
export function TopUpLink() {
  const { t } = useI18n();
  return (
    <Link
      to="/topup"
      className="font-medium text-accent-text underline underline-offset-2 hover:no-underline"
    >
      {t('sending.topUp')}
    </Link>
  );
}

/**
 * Before Start Mass Send: what this send costs, the balance and the balance after, and a warning with
 * Top up when the balance does not cover it. Free sending is one quiet line; with nothing to price
 * yet, the price per segment and where the cost will show.
 */
export function SendCost(props: {
  preview: CostPreview | undefined;
  free: boolean;
  /** USD per SMS segment, for the line shown before there is anything to price. */
  pricePerSegment: number;
  /** Id of the warning, for the Start button's aria-describedby. */
  shortId: string;
}) {
  const { t } = useI18n();
  const { preview, free } = props;
  if (free) return <p className="text-xs text-muted">{t('sending.free')}</p>;
  if (!preview) {
    return (
      <p className="text-xs text-muted">
        {t('sending.costPending', { price: formatMoney(props.pricePerSegment, { decimals: 4 }) })}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <div
        data-testid="send-cost"
        className="flex flex-col gap-2 rounded-md border border-line bg-subtle px-3 py-2.5"
      >
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
          <Item label={t('sending.costLabel')}>
            <Money units={preview.cost} className="font-semibold" />
            <span className="block text-xs font-normal text-muted">
              {t('sending.costDetail', {
                messages: formatNumber(preview.messages),
                segments: formatNumber(preview.segments),
              })}
            </span>
          </Item>
          {preview.balance !== undefined && preview.after !== undefined ? (
            <>
              <Item label={t('sending.balanceLabel')}>
                <Money units={preview.balance} />
              </Item>
              <Item label={t('sending.balanceAfterLabel')}>
                <Money units={preview.after} className={cx(preview.short && 'font-semibold text-bad')} />
              </Item>
            </>
          ) : null}
        </dl>
        {preview.groups.length > 0 ? <CountryTable groups={preview.groups} /> : null}
      </div>
      {preview.short ? (
        <div id={props.shortId}>
          <Notice tone="error">
            {t('sending.balanceShort')} <TopUpLink />
          </Notice>
        </div>
      ) : null}
    </div>
  );
}

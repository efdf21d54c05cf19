import { unitsText } from '@simdock/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Notice } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { formatMoney, formatNumber } from '../../lib/format.ts';
import type { CostPreview } from './send-cost.ts';

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
      <dl
        data-testid="send-cost"
        className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-md border border-line bg-subtle px-3 py-2.5 text-sm sm:grid-cols-3"
      >
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

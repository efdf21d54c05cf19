import { cx } from '../lib/cx.ts';
import { formatDateTime, toDate } from '../lib/format.ts';

/**
 * A date and time in a table cell (`formatDateTime`'s text), allowed to break between the date and the
 * time and nowhere else: a narrow column shows them on two lines instead of widening the table past
 * the screen (Created At, Finished At at 1280 px). '-' when missing.
 */
export function DateTimeText({
  value,
  className,
}: {
  value: string | number | Date | null | undefined;
  className?: string;
}) {
  const d = toDate(value);
  if (!d) return <span className={className}>-</span>;
  const text = formatDateTime(d);
  const cut = text.lastIndexOf(' ');
  return (
    <time dateTime={d.toISOString()} className={cx('tabular', className)}>
      <span className="whitespace-nowrap">{text.slice(0, cut)}</span>{' '}
      <span className="whitespace-nowrap">{text.slice(cut + 1)}</span>
    </time>
  );
}

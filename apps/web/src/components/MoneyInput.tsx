import type { FocusEvent, InputHTMLAttributes, Ref } from 'react';
import { cx } from '../lib/cx.ts';
import { formatMoneyInput } from '../lib/format.ts';
import { Input } from './Input.tsx';

export interface MoneyInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode' | 'step'> {
  /** Most decimals the amount may have (2 for prices and top-ups, 4 for balances). */
  decimals?: 2 | 4;
  ref?: Ref<HTMLInputElement>;
}

/**
 * The one money field (USD): "$" in front, a decimal keyboard on phones, the amount as exact text (no
 * float rounding, no spinner or scroll-wheel changes), and on leaving the field the amount written the
 * way formatMoney shows it, without the "$" and separators: "12.5" → "12.50", "9.9775" stays. Text the
 * field cannot read stays as typed, for the form's rule to name.
 */
export function MoneyInput({ decimals = 2, className, onBlur, onChange, ...rest }: MoneyInputProps) {
  const normalize = (e: FocusEvent<HTMLInputElement>) => {
    const next = formatMoneyInput(e.target.value, decimals);
    if (next !== e.target.value) {
      e.target.value = next;
      // Tell a form library about the tidied text as a change (react-hook-form reads target and type;
      // it would take a blur event for a touch, not a new value).
      onChange?.({ ...e, type: 'change' } as unknown as Parameters<NonNullable<typeof onChange>>[0]);
    }
    onBlur?.(e);
  };
  return (
    <span className={cx('relative block', className)}>
      <span
        className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-muted"
        aria-hidden
      >
        $
      </span>
      <Input
        type="text"
        inputMode="decimal"
        autoComplete="off"
        className="pl-6 tabular"
        onChange={onChange}
        onBlur={normalize}
        {...rest}
      />
    </span>
  );
}

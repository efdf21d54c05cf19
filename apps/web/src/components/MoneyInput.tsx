import {
  type ChangeEvent,
  type FocusEvent,
  type InputHTMLAttributes,
  type Ref,
  useLayoutEffect,
  useRef,
} from 'react';
import { currentLanguage } from '../i18n/index.tsx';
import { cx } from '../lib/cx.ts';
import { formatMoneyInput, parseMoneyInput, showMoneyInput } from '../lib/format.ts';
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
 * The form always holds the amount with a decimal point ("12.50"); the field shows and reads the
 * language's decimal mark: in Vietnamese "12,50" (a phone's decimal keyboard offers the comma), and a
 * point typed there is read too.
 */
export function MoneyInput({ decimals = 2, className, onBlur, onChange, ref, ...rest }: MoneyInputProps) {
  // The language the app shows (as the formatters read it; the page re-renders on a switch).
  const lang = currentLanguage();
  const own = useRef<HTMLInputElement | null>(null);
  // What the form is told: the amount with a point, whatever the field shows. A target without a
  // `type` makes react-hook-form take this value rather than read the element's own text.
  const tell = <E extends ChangeEvent<HTMLInputElement> | FocusEvent<HTMLInputElement>>(
    e: E,
    type: string,
    value: string,
  ) => ({ ...e, type, target: { name: e.target.name, value } }) as unknown as E;
  // A value the form wrote into the field (its defaults, a reset) is shown in the language's form.
  useLayoutEffect(() => {
    const el = own.current;
    if (el && el !== document.activeElement) {
      const shown = showMoneyInput(el.value, lang);
      if (shown !== el.value) el.value = shown;
    }
  });
  const setRef = (el: HTMLInputElement | null) => {
    own.current = el;
    if (typeof ref === 'function') ref(el);
    else if (ref) ref.current = el;
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
        ref={setRef}
        onChange={(e) => onChange?.(tell(e, 'change', parseMoneyInput(e.target.value, lang)))}
        onBlur={(e) => {
          const value = formatMoneyInput(parseMoneyInput(e.target.value, lang), decimals);
          const shown = showMoneyInput(value, lang);
          if (shown !== e.target.value) e.target.value = shown;
          // The tidied amount reaches the form as a change (a blur alone would only mark it touched).
          onChange?.(tell(e, 'change', value) as unknown as ChangeEvent<HTMLInputElement>);
          onBlur?.(tell(e, 'blur', value));
        }}
        {...rest}
      />
    </span>
  );
}

// Money amounts are decided on their decimal text, never by float arithmetic: 0.55 * 100 is
// 55.00000000000001 in binary floating point, so a "× 100 is whole" check refuses prices operators
// use every day. A JSON number is read through its shortest round-trip text (String(0.55) is
// "0.55"), which is exactly what the sender wrote.

/** Cents: prices, balances, top-ups, ledger amounts. */
export const MONEY_DECIMALS = 2;
/** Integer digits SQL numeric(14, 2) holds. */
const MAX_WHOLE_DIGITS = 12;

/**
 * A non-negative amount as exact decimal text with exactly `decimals` places ("0.55", 12.5 →
 * "12.50"), or undefined when it is not one: more decimals than allowed, negative, exponent
 * notation, not finite, junk, or more than 12 integer digits. Accepts a number or a decimal text.
 */
export function moneyText(value: unknown, decimals: number = MONEY_DECIMALS): string | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else return undefined;
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return undefined;
  const whole = BigInt(m[1] as string).toString();
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (whole.length > MAX_WHOLE_DIGITS || frac.length > decimals) return undefined;
  return decimals > 0 ? `${whole}.${frac.padEnd(decimals, '0')}` : whole;
}

/** Whether a number or decimal text is an amount ≥ 0 with at most `decimals` places. */
export const isMoney = (value: unknown, decimals: number = MONEY_DECIMALS): boolean =>
  moneyText(value, decimals) !== undefined;

/** Most integer and fractional digits of an amount a payment provider reports (crypto has 18 places). */
const PROVIDER_WHOLE_DIGITS = 15;
const PROVIDER_DECIMALS = 18;
const PROVIDER_DECIMAL = new RegExp(`^\\d{1,${PROVIDER_WHOLE_DIGITS}}(?:\\.\\d{1,${PROVIDER_DECIMALS}})?$`);

/**
 * Whether a text is an amount in the one fixed form a provider's decimal text may take: digits,
 * optionally a point and digits ("10", "0.048", "10.50"). No sign, exponent ("1e3"), spaces,
 * thousands separators, "Infinity", or more digits than any real amount has. A text in any other form
 * is refused, never guessed at.
 */
export const isDecimalText = (text: string): boolean => PROVIDER_DECIMAL.test(text);

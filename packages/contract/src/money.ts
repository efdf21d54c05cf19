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

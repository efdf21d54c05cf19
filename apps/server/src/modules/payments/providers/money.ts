// Exact decimal helpers for provider amounts: strings in, strings out, BigInt in between.
// Never float arithmetic on money (docs/payments.md#partial-and-over-payments).
import { isDecimalText } from '@simdock/contract';

export interface Decimal {
  /** The value times 10^scale. */
  units: bigint;
  scale: number;
}

const PLAIN = /^(\d+)(?:\.(\d+))?$/;
const SCI = /^(\d+)(?:\.(\d+))?[eE]([+-]?\d+)$/;

/** Parses a non-negative decimal ("10", "0.048", "1.5e-7"); null when it is not one. */
export function parseDecimal(text: string): Decimal | null {
  const s = text.trim();
  const plain = PLAIN.exec(s);
  if (plain) {
    const frac = plain[2] ?? '';
    return { units: BigInt((plain[1] as string) + frac), scale: frac.length };
  }
  const sci = SCI.exec(s);
  if (sci) {
    const frac = sci[2] ?? '';
    const exp = Number(sci[3]);
    if (!Number.isSafeInteger(exp) || Math.abs(exp) > 400) return null;
    const units = BigInt((sci[1] as string) + frac);
    const scale = frac.length - exp;
    return scale >= 0 ? { units, scale } : { units: units * 10n ** BigInt(-scale), scale: 0 };
  }
  return null;
}

/** JSON numbers past this are no amount any provider reports (and JavaScript writes them as "1e+21"). */
const MAX_JSON_AMOUNT = 1e15;

/**
 * A JSON amount as a plain decimal string; null when absent or invalid. A number is read through its
 * shortest round-trip text (which is what the provider wrote, "1e-7" for a tiny one); a string must be
 * decimal text of the contract's fixed form (`isDecimalText`): "1e3", "-1", " 10" or "0x10" are invalid,
 * never guessed at.
 */
export function decimalFromJson(value: unknown): string | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0 || value >= MAX_JSON_AMOUNT) return null;
    text = String(value); // shortest round-trip form of what the provider wrote (e.g. "0.04781784", "1e-7")
  } else if (typeof value === 'string' && isDecimalText(value)) {
    text = value;
  } else {
    return null;
  }
  const d = parseDecimal(text);
  return d ? formatDecimal(d) : null;
}

export function formatDecimal(d: Decimal): string {
  const digits = d.units.toString().padStart(d.scale + 1, '0');
  if (d.scale === 0) return digits;
  const int = digits.slice(0, digits.length - d.scale);
  const frac = digits.slice(digits.length - d.scale).replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

function toCentsFloor(d: Decimal): bigint {
  // value * 100, rounded down
  return d.scale <= 2 ? d.units * 10n ** BigInt(2 - d.scale) : d.units / 10n ** BigInt(d.scale - 2);
}

export function centsToString(cents: bigint): string {
  const neg = cents < 0n;
  const a = neg ? -cents : cents;
  return `${neg ? '-' : ''}${a / 100n}.${(a % 100n).toString().padStart(2, '0')}`;
}

/** "12.349" → "12.34" (rounded down to cents). */
export function floorToCents(amount: string): string {
  const d = parseDecimal(amount);
  if (!d) throw new Error(`not a decimal amount: ${amount}`);
  return centsToString(toCentsFloor(d));
}

/** a × b ÷ c rounded down to cents, exactly; "0.00" when c is zero. */
export function mulDivFloorCents(a: string, b: string, c: string): string {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  const z = parseDecimal(c);
  if (!x || !y || !z) throw new Error(`not decimal amounts: ${a}, ${b}, ${c}`);
  if (z.units === 0n) return '0.00';
  // (x.u/10^xs)(y.u/10^ys)/(z.u/10^zs)*100 = x.u*y.u*100*10^zs / (z.u*10^(xs+ys))
  const num = x.units * y.units * 100n * 10n ** BigInt(z.scale);
  const den = z.units * 10n ** BigInt(x.scale + y.scale);
  return centsToString(num / den);
}

/** Cents as an integer, from a "12.34" string. */
export function centsOf(amount: string): bigint {
  const d = parseDecimal(amount);
  if (!d) throw new Error(`not a decimal amount: ${amount}`);
  return toCentsFloor(d);
}

// Fixed-point amounts for the simulator (8 decimals, BigInt), so the amounts it reports are exact.
const SCALE = 8;
const ONE = 10n ** BigInt(SCALE);

export type Units = bigint;

/** Parses "10", "10.5", 10.5 into units of 1e-8; throws on anything else. */
export function toUnits(v: string | number): Units {
  const s = typeof v === 'number' ? numberText(v) : v.trim();
  const m = /^(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) throw new Error(`not a non-negative decimal: ${s}`);
  const frac = (m[2] ?? '').slice(0, SCALE).padEnd(SCALE, '0');
  return BigInt(m[1] as string) * ONE + BigInt(frac);
}

function numberText(n: number): string {
  if (!Number.isFinite(n) || n < 0) throw new Error(`not a non-negative amount: ${n}`);
  return n.toFixed(SCALE);
}

/** "10.5" style text without trailing zeros. */
export function unitsText(u: Units): string {
  const neg = u < 0n;
  const a = neg ? -u : u;
  const int = a / ONE;
  const frac = (a % ONE).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** The JSON number the provider would send for this amount. */
export function unitsNumber(u: Units): number {
  return Number(unitsText(u));
}

/** a * num / den, rounded to `decimals` places (half up). */
export function mulDiv(a: Units, num: Units, den: Units, decimals = SCALE): Units {
  if (den === 0n) throw new Error('division by zero');
  const step = 10n ** BigInt(SCALE - decimals);
  const raw = (a * num * 2n + den) / (den * 2n);
  return ((raw + step / 2n) / step) * step;
}

export { ONE as UNIT };

import { moneyText } from './money.ts';
import { smsSegments } from './sms-segments.ts';

// Message prices. An SMS is priced per segment (GSM-7 / UCS-2, the counter the sending page shows),
// an MMS at one price. Prices have up to 4 decimals; costs are computed in whole ten-thousandths of
// a dollar so a campaign's total is exact (no float sums), then given as decimal text.

/** Decimals of message prices, message costs, balances and ledger amounts. */
export const PRICE_DECIMALS = 4;
const SCALE = 10_000;

/** One destination country's own prices (null: the defaults) and whether messages may go there. */
export interface DestinationCountry {
  country: string;
  smsPricePerSegment: string | number | null;
  mmsPrice: string | number | null;
  enabled: boolean;
}

export interface MessagePrices {
  /** USD per SMS segment, decimal text or number, ≥ 0, up to 4 decimals. */
  smsPricePerSegment: string | number;
  /** USD per MMS. */
  mmsPrice: string | number;
  /** Destination countries with their own prices or permission; absent: none listed. */
  countries?: readonly DestinationCountry[];
  /** Whether a country not listed (or a number with no country) may be sent to; default true. */
  otherCountriesEnabled?: boolean;
}

/** What a message to one destination costs, and whether it may be sent at all. */
export interface DestinationPrices {
  enabled: boolean;
  smsPricePerSegment: string | number;
  mmsPrice: string | number;
}

/**
 * The prices of messages to `country` (ISO alpha-2, or null when the number has none): a listed
 * country's own prices (null falls back to the default) and its switch; any other country follows
 * `otherCountriesEnabled` at the default prices.
 */
export function destinationPrices(prices: MessagePrices, country: string | null): DestinationPrices {
  const listed = country === null ? undefined : prices.countries?.find((c) => c.country === country);
  if (!listed) {
    return {
      enabled: prices.otherCountriesEnabled ?? true,
      smsPricePerSegment: prices.smsPricePerSegment,
      mmsPrice: prices.mmsPrice,
    };
  }
  return {
    enabled: listed.enabled,
    smsPricePerSegment: listed.smsPricePerSegment ?? prices.smsPricePerSegment,
    mmsPrice: listed.mmsPrice ?? prices.mmsPrice,
  };
}

/** A price as whole ten-thousandths of a dollar; throws on a value that is not a price. */
export function priceUnits(price: string | number): number {
  const text = moneyText(price, PRICE_DECIMALS);
  if (text === undefined) throw new RangeError(`Not a price: ${String(price)}`);
  const [whole, frac] = text.split('.') as [string, string];
  return Number(whole) * SCALE + Number(frac);
}

/** Ten-thousandths of a dollar as decimal text with 4 places ("0.0225"). */
export function unitsText(units: number): string {
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  return `${sign}${Math.floor(abs / SCALE)}.${String(abs % SCALE).padStart(4, '0')}`;
}

/**
 * One message's cost in ten-thousandths: an MMS at its price, an SMS per segment, at the prices of
 * its destination's country (undefined: the defaults; null: a number with no country). Whether the
 * destination is enabled is the caller's question (`destinationPrices`).
 */
export function messageCostUnits(
  body: string,
  prices: MessagePrices,
  isMms = false,
  country?: string | null,
): number {
  const p = country === undefined ? prices : destinationPrices(prices, country);
  if (isMms) return priceUnits(p.mmsPrice);
  return smsSegments(body).segments * priceUnits(p.smsPricePerSegment);
}

/** One message's cost as decimal text ("0.0150"). */
export const messageCost = (
  body: string,
  prices: MessagePrices,
  isMms = false,
  country?: string | null,
): string => unitsText(messageCostUnits(body, prices, isMms, country));

/**
 * What a send costs: each recipient's message (`bodies[i]`) priced by its segments, at the prices of
 * the recipient's country (`countries[i]`; without `countries`, the defaults). Bodies repeat
 * (variants rotate over recipients), so each distinct body and country is counted once.
 */
export function sendCostUnits(
  bodies: readonly string[],
  prices: MessagePrices,
  countries?: readonly (string | null)[],
): number {
  const segments = new Map<string, number>();
  const perSegment = new Map<string | null, number>();
  let total = 0;
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i]!;
    let n = segments.get(b);
    if (n === undefined) {
      n = smsSegments(b).segments;
      segments.set(b, n);
    }
    const country = countries ? (countries[i] ?? null) : undefined;
    const key = country === undefined ? '' : country;
    let unit = perSegment.get(key);
    if (unit === undefined) {
      unit = priceUnits(
        (country === undefined ? prices : destinationPrices(prices, country)).smsPricePerSegment,
      );
      perSegment.set(key, unit);
    }
    total += n * unit;
  }
  return total;
}

/** Whether a value is a price: ≥ 0 with at most 4 decimals. */
export const isPrice = (value: unknown): boolean => moneyText(value, PRICE_DECIMALS) !== undefined;

/**
 * A decimal text from SQL numeric(…, 4) as people and programs read it: at least two decimals, the
 * trailing zeros beyond them dropped ("12.5000" → "12.50", "0.0225" stays). Exact: text in, text out.
 */
export function amountText(text: string): string {
  const m = /^(-?\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!m) return text;
  const frac = (m[2] ?? '').replace(/0+$/, '').padEnd(2, '0');
  return `${m[1]}.${frac}`;
}

/** Recipients' countries (null: a number with no country) that may not be sent to, with how many of them. */
export interface RefusedDestination {
  country: string | null;
  count: number;
}

/** The destinations of `countries` (one per recipient) that are not enabled, most recipients first. */
export function disabledDestinations(
  prices: MessagePrices,
  countries: readonly (string | null)[],
): RefusedDestination[] {
  const counts = new Map<string | null, number>();
  const enabled = new Map<string | null, boolean>();
  for (const c of countries) {
    let ok = enabled.get(c);
    if (ok === undefined) {
      ok = destinationPrices(prices, c).enabled;
      enabled.set(c, ok);
    }
    if (!ok) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return [...counts]
    .map(([country, count]) => ({ country, count }))
    .sort((a, b) => b.count - a.count || String(a.country).localeCompare(String(b.country)));
}

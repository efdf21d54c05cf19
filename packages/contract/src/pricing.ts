import { moneyText } from './money.ts';
import { smsSegments } from './sms-segments.ts';

// Message prices. An SMS is priced per segment (GSM-7 / UCS-2, the counter the sending page shows),
// an MMS at one price. Prices have up to 4 decimals; costs are computed in whole ten-thousandths of
// a dollar so a campaign's total is exact (no float sums), then given as decimal text.

/** Decimals of message prices, message costs, balances and ledger amounts. */
export const PRICE_DECIMALS = 4;
const SCALE = 10_000;

export interface MessagePrices {
  /** USD per SMS segment, decimal text or number, ≥ 0, up to 4 decimals. */
  smsPricePerSegment: string | number;
  /** USD per MMS. */
  mmsPrice: string | number;
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

/** One message's cost in ten-thousandths: an MMS at its price, an SMS per segment. */
export function messageCostUnits(body: string, prices: MessagePrices, isMms = false): number {
  if (isMms) return priceUnits(prices.mmsPrice);
  return smsSegments(body).segments * priceUnits(prices.smsPricePerSegment);
}

/** One message's cost as decimal text ("0.0150"). */
export const messageCost = (body: string, prices: MessagePrices, isMms = false): string =>
  unitsText(messageCostUnits(body, prices, isMms));

/**
 * What a send costs: each recipient's message (`bodies[i]`) priced by its segments. Bodies repeat
 * (variants rotate over recipients), so each distinct body is counted once.
 */
export function sendCostUnits(bodies: readonly string[], prices: MessagePrices): number {
  const per = new Map<string, number>();
  let total = 0;
  for (const b of bodies) {
    let c = per.get(b);
    if (c === undefined) {
      c = messageCostUnits(b, prices);
      per.set(b, c);
    }
    total += c;
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

import {
  assignMessages,
  disabledDestinations,
  type MessagePrices,
  messageCostUnits,
  PRICE_DECIMALS,
  priceUnits,
  type RefusedDestination,
  smsSegments,
  validateMessages,
} from '@simdock/contract';
// The number tables load with this page only (never on the sign-in route).
import { countryOfNumber } from '@simdock/contract/phone-country';

/** Ten-thousandths of a dollar per dollar (the contract's price precision). */
const SCALE = 10 ** PRICE_DECIMALS;

/** The recipients of one destination country (null: numbers with no known country). */
export interface CountryGroup {
  country: string | null;
  messages: number;
  segments: number;
  cost: number;
  /** The operator sends there. */
  enabled: boolean;
}

/** What a send would cost, shown before Start Mass Send. Amounts are whole ten-thousandths of a dollar. */
export interface CostPreview {
  /** Messages the send queues: one per unique valid recipient. */
  messages: number;
  /** Their SMS segments (GSM-7 160/153, UCS-2 70/67 characters). */
  segments: number;
  cost: number;
  /** Undefined while the balance is not known. */
  balance?: number;
  after?: number;
  /** The balance is known and does not cover the cost. */
  short: boolean;
  /** The recipients by country, most messages first. */
  groups: CountryGroup[];
}

/** A balance (a number with up to 4 decimals) in ten-thousandths; rounding drops float noise. */
export const amountUnits = (amount: number): number => Math.round(amount * SCALE);

/**
 * Whether sending SMS costs nothing at these prices, to every country (a price the contract cannot
 * read counts as not free).
 */
export function isFree(prices: MessagePrices): boolean {
  try {
    return (
      priceUnits(prices.smsPricePerSegment) === 0 &&
      (prices.countries ?? []).every(
        (c) => c.smsPricePerSegment === null || priceUnits(c.smsPricePerSegment) === 0,
      )
    );
  } catch {
    return false;
  }
}

/** The recipients' countries the operator does not send to (the server refuses the whole send then). */
export const refusedDestinations = (
  recipients: readonly string[],
  prices: MessagePrices,
): RefusedDestination[] => disabledDestinations(prices, recipients.map(countryOfNumber));

/**
 * The cost of sending the message lines `mess` to `recipients` (unique valid numbers, in order): each
 * recipient's message after variant rotation (`assignMessages`), priced by its segments at its
 * country's price (`messageCostUnits`, as the server charges), against the user's balance, and
 * grouped by country. Undefined when there is nothing to price yet (no recipient, no usable message
 * line) or a price is not one the contract reads.
 */
export function costPreview(
  recipients: readonly string[],
  mess: string,
  prices: MessagePrices,
  balance: number | undefined,
): CostPreview | undefined {
  if (recipients.length === 0) return undefined;
  const lines = validateMessages(mess);
  if (!lines.ok) return undefined;
  const bodies = assignMessages(recipients, lines.value).map((a) => a.text);
  const groups = new Map<string | null, CountryGroup>();
  const segmentsOf = new Map<string, number>();
  const unitsOf = new Map<string, number>();
  let cost = 0;
  let segments = 0;
  try {
    for (let i = 0; i < bodies.length; i++) {
      const body = bodies[i]!;
      const country = countryOfNumber(recipients[i]!);
      let n = segmentsOf.get(body);
      if (n === undefined) {
        n = smsSegments(body).segments;
        segmentsOf.set(body, n);
      }
      const key = `${country ?? ''}:${body}`;
      let units = unitsOf.get(key);
      if (units === undefined) {
        units = messageCostUnits(body, prices, false, country);
        unitsOf.set(key, units);
      }
      let g = groups.get(country);
      if (!g) {
        const enabled = disabledDestinations(prices, [country]).length === 0;
        g = { country, messages: 0, segments: 0, cost: 0, enabled };
        groups.set(country, g);
      }
      g.messages++;
      g.segments += n;
      g.cost += units;
      segments += n;
      cost += units;
    }
  } catch {
    return undefined;
  }
  const preview: CostPreview = {
    messages: bodies.length,
    segments,
    cost,
    short: false,
    groups: [...groups.values()].sort((a, b) => b.messages - a.messages),
  };
  if (balance === undefined || !Number.isFinite(balance)) return preview;
  const units = amountUnits(balance);
  return { ...preview, balance: units, after: units - cost, short: cost > units };
}

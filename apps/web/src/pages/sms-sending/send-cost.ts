import {
  assignMessages,
  type MessagePrices,
  PRICE_DECIMALS,
  priceUnits,
  sendCostUnits,
  smsSegments,
  validateMessages,
} from '@simdock/contract';

/** Ten-thousandths of a dollar per dollar (the contract's price precision). */
const SCALE = 10 ** PRICE_DECIMALS;

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
}

/** A balance (a number with up to 4 decimals) in ten-thousandths; rounding drops float noise. */
export const amountUnits = (amount: number): number => Math.round(amount * SCALE);

/** Whether sending SMS costs nothing at these prices (a price the contract cannot read counts as not free). */
export function isFree(prices: MessagePrices): boolean {
  try {
    return priceUnits(prices.smsPricePerSegment) === 0;
  } catch {
    return false;
  }
}

/**
 * The cost of sending the message lines `mess` to `recipients` (unique valid numbers, in order): each
 * recipient's message after variant rotation (`assignMessages`), priced by its segments
 * (`sendCostUnits`), against the user's balance. Undefined when there is nothing to price yet (no
 * recipient, no usable message line) or the price is not one the contract reads.
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
  let cost: number;
  try {
    cost = sendCostUnits(bodies, prices);
  } catch {
    return undefined;
  }
  const perBody = new Map<string, number>();
  let segments = 0;
  for (const b of bodies) {
    let s = perBody.get(b);
    if (s === undefined) {
      s = smsSegments(b).segments;
      perBody.set(b, s);
    }
    segments += s;
  }
  const preview: CostPreview = { messages: bodies.length, segments, cost, short: false };
  if (balance === undefined || !Number.isFinite(balance)) return preview;
  const units = amountUnits(balance);
  return { ...preview, balance: units, after: units - cost, short: cost > units };
}

import { isMoney } from './money.ts';

// Top-up rules shared by the top-up page and the server (docs/product.md: minimum 10, default 10).

export const TOPUP_MIN = 10;
export const TOPUP_DEFAULT = 10;
/** A documented ceiling: one invoice above this is almost surely a typo (and an AML question). */
export const TOPUP_MAX = 10_000;
/** Unpaid invoices a user may hold at once; more are refused until one is paid or expires. */
export const TOPUP_MAX_OPEN = 5;
/** Rows per page of the user's payment history. */
export const PAYMENT_HISTORY_PAGE_SIZE = 10;

export const topupMessages = {
  notNumber: 'Enter the amount as a number, e.g. 10 or 25.50.',
  belowMin: `The minimum top-up is ${TOPUP_MIN} USD.`,
  aboveMax: `The maximum top-up is ${TOPUP_MAX.toLocaleString('en-US')} USD per invoice.`,
  decimals: 'Use at most two decimals (cents).',
} as const;

export type TopupProblem = keyof typeof topupMessages;

/** What is wrong with a top-up amount (a key of topupMessages), or null when it is acceptable. */
export function topupAmountProblem(value: unknown): TopupProblem | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'notNumber';
  if (value < TOPUP_MIN) return 'belowMin';
  if (value > TOPUP_MAX) return 'aboveMax';
  // Cents must be whole: 10.005 is refused, 10.1 (= 10.10) is fine; decided on the decimal text.
  if (!isMoney(value)) return 'decimals';
  return null;
}

/**
 * Payment Manager (docs/product.md#screens-and-routes): ids over 12 characters show as the first 6, dots, the
 * last 4.
 */
export function shortPaymentId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 6)}...${id.slice(-4)}` : id;
}

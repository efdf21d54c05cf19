import { z } from 'zod';
import { PAGE_MAX } from '../limits.ts';

/**
 * Balance history (POST /api/user/balanceHistory): the signed-in user's ledger, newest first, each
 * entry with the balance right after it. Amounts are USD numbers with up to 4 decimals (message
 * prices); show them with the web's formatMoney.
 */

/** Every kind of money movement the ledger records. */
export const LEDGER_KINDS = [
  'topup',
  'order_charge',
  'refund',
  'admin_adjustment',
  'demo_credit',
  'message_charge',
  'message_refund',
] as const;
export const LedgerKind = z.enum(LEDGER_KINDS);
export type LedgerKind = z.infer<typeof LedgerKind>;

export const BALANCE_HISTORY_PAGE_SIZES = [20, 50, 100] as const;
export const BALANCE_HISTORY_DEFAULT_PAGE_SIZE = 20;
export const BALANCE_HISTORY_MAX_PAGE_SIZE = 100;

export const BalanceHistoryBody = z
  .object({
    page: z.number().int().min(1).max(PAGE_MAX).default(1),
    pageSize: z
      .number()
      .int()
      .min(1)
      .max(BALANCE_HISTORY_MAX_PAGE_SIZE)
      .default(BALANCE_HISTORY_DEFAULT_PAGE_SIZE),
  })
  .default({ page: 1, pageSize: BALANCE_HISTORY_DEFAULT_PAGE_SIZE });
export type BalanceHistoryBody = z.input<typeof BalanceHistoryBody>;

/** A range of message ids (a refund batch), or one message (first = last: a chat reply). */
const MessageRange = z.object({ first: z.string(), last: z.string() });

/**
 * What an entry was for, as the page says it: an order (a rental and its refund), a campaign (its
 * charge, and its refunds with the messages they cover), or messages outside a campaign (a chat
 * reply, their refunds). Top-ups, adjustments and the starting balance have none: the kind says it.
 */
export const LedgerReference = z.discriminatedUnion('type', [
  z.object({ type: z.literal('order'), orderId: z.string() }),
  z.object({ type: z.literal('campaign'), campaignId: z.string(), messages: MessageRange.nullable() }),
  z.object({ type: z.literal('messages'), messages: MessageRange }),
]);
export type LedgerReference = z.infer<typeof LedgerReference>;

export const BalanceEntry = z.object({
  id: z.string(),
  /** ISO time. */
  createdAt: z.string(),
  kind: LedgerKind,
  reference: LedgerReference.nullable(),
  /** Signed: credits positive, charges negative. */
  amount: z.number(),
  /** The balance right after this entry; null where it is not known. */
  balanceAfter: z.number().nullable(),
});
export type BalanceEntry = z.infer<typeof BalanceEntry>;

export const BalanceHistoryResponse = z.object({
  items: z.array(BalanceEntry),
  /** Entries in all. */
  total: z.number().int().min(0),
  /** `total` is the database's estimate (a long ledger; docs/architecture.md#paged-lists). */
  totalEstimated: z.boolean().optional(),
});
export type BalanceHistoryResponse = z.infer<typeof BalanceHistoryResponse>;

const ID = /^\d{1,20}$/;

function messageRange(text: string | undefined): z.infer<typeof MessageRange> | null {
  const m = /^(\d{1,20})-(\d{1,20})$/.exec(text ?? '');
  return m ? { first: m[1]!, last: m[2]! } : null;
}

/**
 * Reads a ledger `ref` as written by the server: `order:<id>` (rentals and their refunds),
 * `campaign:<id>` (a send's charge), `campaign:<id>:messages:<first>-<last>` (its refunds),
 * `message:<id>` (a chat reply's charge), `messages:<first>-<last>` (their refunds). Other refs
 * (a payment provider's id, an audit entry) and unknown shapes: null.
 */
export function ledgerReference(ref: string | null): LedgerReference | null {
  if (!ref) return null;
  const parts = ref.split(':');
  const [head, id, sub, range] = parts;
  if (head === 'order' && parts.length === 2 && ID.test(id ?? '')) return { type: 'order', orderId: id! };
  if (head === 'campaign' && ID.test(id ?? '')) {
    if (parts.length === 2) return { type: 'campaign', campaignId: id!, messages: null };
    const messages = sub === 'messages' && parts.length === 4 ? messageRange(range) : null;
    return messages ? { type: 'campaign', campaignId: id!, messages } : null;
  }
  if (head === 'message' && parts.length === 2 && ID.test(id ?? ''))
    return { type: 'messages', messages: { first: id!, last: id! } };
  if (head === 'messages' && parts.length === 2) {
    const messages = messageRange(id);
    return messages ? { type: 'messages', messages } : null;
  }
  return null;
}

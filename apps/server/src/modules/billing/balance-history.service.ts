import { type BalanceEntry, type BalanceHistoryResponse, ledgerReference } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { type LedgerPageEntry, ledgerPage } from './billing.queries.ts';

// The Balance history page: the user's own ledger, newest first. Refs are turned into what the page
// can name (an order, a campaign, messages); a payment provider's id or an audit entry stays internal.

export function toBalanceEntry(e: LedgerPageEntry): BalanceEntry {
  return {
    id: e.id,
    createdAt: e.created_at.toISOString(),
    kind: e.kind,
    reference: ledgerReference(e.ref),
    amount: Number(e.amount),
    balanceAfter: e.balance_after === null ? null : Number(e.balance_after),
  };
}

/** One page of the user's ledger and how many entries there are. */
export async function balanceHistory(
  ctx: AppContext,
  userId: string,
  page: { page: number; pageSize: number },
): Promise<BalanceHistoryResponse> {
  const { entries, total, totalEstimated } = await ledgerPage(
    ctx.db,
    userId,
    page.pageSize,
    (page.page - 1) * page.pageSize,
  );
  return { items: entries.map(toBalanceEntry), total, ...(totalEstimated ? { totalEstimated } : {}) };
}

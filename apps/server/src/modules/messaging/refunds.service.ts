import type { AppContext } from '../../context.ts';
import { refundMany } from '../billing/index.ts';
import { takeDueRefunds } from './messaging.queries.ts';

// Money back for messages that ended failed (after their retries) or cancelled. A message is
// charged when its send is accepted; here its cost goes back, once: the message is marked refunded
// in the same transaction as the ledger entry, so a crash undoes both and another process skips
// what this one holds. Batched: one ledger row per user and campaign per pass, not one per message.
// Run after every change that can end messages, and by a job (which catches what a crash left).

/** Most messages one pass refunds (one transaction). */
const PASS_SIZE = 1000;

/** Refunds every message due now; the number of messages refunded. */
export async function refundEndedMessages(ctx: AppContext): Promise<number> {
  let total = 0;
  for (;;) {
    const at = ctx.clock.now();
    const n = await ctx.db.tx(async (q) => {
      const due = await takeDueRefunds(q, at, PASS_SIZE);
      await refundMany(
        q,
        due.map((d) => ({
          userId: d.user_id,
          amount: d.amount,
          ref: `${d.campaign_id ? `campaign:${d.campaign_id}:` : ''}messages:${d.first}-${d.last}`,
        })),
        at,
        'message_refund',
      );
      return due.reduce((sum, d) => sum + d.n, 0);
    });
    total += n;
    if (n < PASS_SIZE) return total;
  }
}

/** Whether a change ended messages that may have money to give back. */
export const endedAny = (rows: readonly { status: string }[]): boolean =>
  rows.some((r) => r.status === 'failed' || r.status === 'cancelled');

import { foldAll } from '../../db/tallies.ts';
import type { ModuleDescriptor } from '../../module.ts';
import { BALANCE_TALLIES, balanceOf, hasLedgerEntries } from './billing.queries.ts';
import { billingRoutes } from './billing.routes.ts';

// Billing: balances and the ledger. The only module that writes `users.balance` or `ledger`.
export { BALANCE_TALLIES, balanceOf, ledgerPage, totalHeld } from './billing.queries.ts';
export { adjust, charge, credit, money, refund, refundMany } from './billing.service.ts';

export const billingModule: ModuleDescriptor = {
  name: 'billing',
  tables: ['ledger', 'balance_tallies'],
  routes: billingRoutes,
  jobs: [
    {
      // The tally's appended rows fold into one (it stays exact unfolded too).
      name: 'billing-tallies-fold',
      intervalMs: () => 30_000,
      run: async (ctx) => {
        await foldAll(ctx.db, BALANCE_TALLIES);
      },
    },
  ],
  userHistoryChecks: [async (q, userId) => ((await hasLedgerEntries(q, userId)) ? 'money movements' : null)],
  // The top bar's balance follows every change live (a top-up credited, a refund).
  liveRenderers: {
    balance: async (ctx, event) => {
      if (event.type !== 'balance') return null;
      const balance = await balanceOf(ctx.db, event.userId);
      return balance === undefined ? null : { event: 'balance', data: { balance: Number(balance) } };
    },
  },
};

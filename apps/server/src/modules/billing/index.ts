import type { ModuleDescriptor } from '../../module.ts';
import { hasLedgerEntries } from './billing.queries.ts';

// Billing: balances and the ledger. The only module that writes `users.balance` or `ledger`.
export { balanceOf, hasLedgerEntries, totalHeld } from './billing.queries.ts';
export { adjust, charge, credit, money, refund, refundMany } from './billing.service.ts';

export const billingModule: ModuleDescriptor = {
  name: 'billing',
  tables: ['ledger'],
  userHistoryChecks: [async (q, userId) => ((await hasLedgerEntries(q, userId)) ? 'money movements' : null)],
};

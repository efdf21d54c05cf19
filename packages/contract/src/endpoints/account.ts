import { ChangePassBody, ChangePassResponse } from '../api/auth.ts';
import { BalanceHistoryBody, BalanceHistoryResponse } from '../api/balance.ts';
import { endpoint } from '../endpoint.ts';

/** The signed-in user's own account (User Info page). Apart from `auth`: the sign-in bundle carries that. */
export const account = {
  /** Ends every other session; the answer's `token` replaces the caller's. */
  changePass: endpoint({
    method: 'POST',
    path: '/api/user/changepass',
    access: 'user',
    tag: 'user',
    body: ChangePassBody,
    response: { 200: ChangePassResponse },
  }),
  /** The caller's ledger, newest first, with the balance after each entry (Balance history page). */
  balanceHistory: endpoint({
    method: 'POST',
    path: '/api/user/balanceHistory',
    access: 'user',
    tag: 'user',
    summary: 'Your money movements, newest first, with the balance after each',
    body: BalanceHistoryBody,
    response: { 200: BalanceHistoryResponse },
  }),
};

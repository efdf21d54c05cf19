import { describe, expect, it } from 'vitest';
import { rawCodesIn } from './raw-text.ts';

// The check every screen of e2e/screens.test.ts passes: no machine code where a word belongs.
describe('rawCodesIn', () => {
  it('finds the contract codes and phone result codes a page shows as they are', () => {
    expect(
      rawCodesIn([
        'Roles: Admin9',
        'Status: cancelled_by_user',
        'Order WAIT_CODE',
        'Reason: Send result: RESULT_ERROR_GENERIC_FAILURE (Generic failure cause)',
        'Action user.create',
      ]),
    ).toEqual(['Admin9', 'cancelled_by_user', 'WAIT_CODE', 'user.create', 'RESULT_ERROR_GENERIC_FAILURE']);
  });

  it('leaves the words people read alone, even where a code is the same word', () => {
    expect(
      rawCodesIn([
        'Roles: Administrator, User',
        'Status: Cancelled · Active · PENDING',
        'SIM use: both',
        'Admin9x is not a code, nor is Admin90',
      ]),
    ).toEqual([]);
  });
});

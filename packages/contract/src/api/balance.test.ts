import { describe, expect, it } from 'vitest';
import { BalanceHistoryBody, ledgerReference } from './balance.ts';

describe('ledgerReference', () => {
  it('reads orders, campaigns and messages', () => {
    expect(ledgerReference('order:42')).toEqual({ type: 'order', orderId: '42' });
    expect(ledgerReference('campaign:7')).toEqual({ type: 'campaign', campaignId: '7', messages: null });
    expect(ledgerReference('campaign:7:messages:101-140')).toEqual({
      type: 'campaign',
      campaignId: '7',
      messages: { first: '101', last: '140' },
    });
    expect(ledgerReference('message:9')).toEqual({ type: 'messages', messages: { first: '9', last: '9' } });
    expect(ledgerReference('messages:3-5')).toEqual({
      type: 'messages',
      messages: { first: '3', last: '5' },
    });
  });

  it('says nothing for refs that are not for the user to read, or malformed', () => {
    for (const ref of [
      null,
      '',
      'audit:12',
      'sandbox:abc123',
      'nowpayments:5077125051',
      'order:',
      'order:x',
      'order:1:2',
      'campaign:7:messages',
      'campaign:7:messages:1',
      'campaign:7:other:1-2',
      'messages:1',
      'message:1:2',
    ]) {
      expect(ledgerReference(ref), String(ref)).toBeNull();
    }
  });
});

describe('BalanceHistoryBody', () => {
  it('defaults to the first page of 20 and refuses pages past 100 entries', () => {
    expect(BalanceHistoryBody.parse(undefined)).toEqual({ page: 1, pageSize: 20 });
    expect(BalanceHistoryBody.parse({ page: 3 })).toEqual({ page: 3, pageSize: 20 });
    expect(BalanceHistoryBody.safeParse({ page: 0 }).success).toBe(false);
    expect(BalanceHistoryBody.safeParse({ pageSize: 101 }).success).toBe(false);
    expect(BalanceHistoryBody.safeParse({ page: 1.5 }).success).toBe(false);
  });
});

import type { UserInfo } from '@simdock/contract';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyBalance, applyConversation, invalidatePayments } from './live.tsx';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('account events', () => {
  const user = {
    username: 'ann',
    email: 'ann@example.com',
    createdTime: '2026-01-01T00:00:00.000Z',
    apiKey: null,
    balance: 5,
    roles: ['User'],
  } as unknown as UserInfo;

  it('a balance event updates the top bar balance in the session cache', () => {
    const qc = new QueryClient();
    qc.setQueryData(['session', 'userInfo', 'tok'], user);
    applyBalance(qc, 30.5);
    expect(qc.getQueryData<UserInfo>(['session', 'userInfo', 'tok'])?.balance).toBe(30.5);
  });

  it('a payment event marks the payment lists stale', () => {
    const qc = new QueryClient();
    qc.setQueryData(['my-payments', 1], { items: [], page: 1, totalPages: 1 });
    invalidatePayments(qc);
    expect(qc.getQueryState(['my-payments', 1])?.isInvalidated).toBe(true);
  });
});

describe('applyConversation', () => {
  it('refreshes the conversation list and that conversation’s thread, not the others', () => {
    const qc = new QueryClient();
    qc.setQueryData(['chat', 'conversations'], { code: 1, data: { records: [] } });
    qc.setQueryData(['chat', 'thread', 'c1'], { code: 1, data: { msgList: [], pictures: true } });
    qc.setQueryData(['chat', 'thread', 'c2'], { code: 1, data: { msgList: [], pictures: true } });
    applyConversation(qc, {
      conversationId: 'c1',
      receiver: '13105550101',
      contactName: '',
      note: '',
      latestSms: 'hi',
      latestTime: 1,
      isRead: false,
    });
    expect(qc.getQueryState(['chat', 'conversations'])?.isInvalidated).toBe(true);
    expect(qc.getQueryState(['chat', 'thread', 'c1'])?.isInvalidated).toBe(true);
    expect(qc.getQueryState(['chat', 'thread', 'c2'])?.isInvalidated).toBe(false);
  });
});

import type { ApiMessage } from '@simdock/contract';
import { describe, expect, it } from 'vitest';
import { aggregateState, messageState, recipientState } from './state.ts';

const msg = (patch: Partial<ApiMessage>): ApiMessage => ({
  id: 'o1',
  direction: 'out',
  status: 'queued',
  phoneNumber: '12025550101',
  text: 'Hi',
  mediaId: null,
  segments: 1,
  cost: '0.01',
  refunded: false,
  campaignId: '1',
  conversationId: '1',
  simId: null,
  reason: null,
  createdAt: '2026-11-27T10:00:00.000Z',
  sentAt: null,
  doneAt: null,
  sendAt: null,
  ...patch,
});

describe('SMSGate states', () => {
  it.each([
    ['queued', 'Pending'],
    ['sending', 'Processed'],
    ['sent', 'Sent'],
    ['delivered', 'Delivered'],
    ['failed', 'Failed'],
    ['cancelled', 'Failed'],
  ] as const)('%s → %s', (status, state) => {
    expect(recipientState(status)).toBe(state);
  });

  it('aggregates as SMSGate does', () => {
    expect(aggregateState(['Delivered', 'Pending'])).toBe('Pending');
    expect(aggregateState(['Delivered', 'Processed'])).toBe('Processed');
    expect(aggregateState(['Delivered', 'Delivered'])).toBe('Delivered');
    expect(aggregateState(['Failed', 'Failed'])).toBe('Failed');
    expect(aggregateState(['Delivered', 'Failed'])).toBe('Sent');
    expect(aggregateState(['Sent', 'Delivered'])).toBe('Sent');
  });

  it('writes a send as SMSGate message state, numbers with +, errors on failures', () => {
    const s = messageState('my-id', [
      msg({ status: 'delivered', sentAt: '2026-11-27T10:00:02.000Z', doneAt: '2026-11-27T10:00:05.000Z' }),
      msg({
        id: 'o2',
        phoneNumber: '12025550102',
        status: 'failed',
        reason: '6 Timeout',
        doneAt: '2026-11-27T10:00:09.000Z',
      }),
    ]);
    expect(s).toMatchObject({
      id: 'my-id',
      deviceId: 'simdock',
      state: 'Sent',
      isHashed: false,
      recipients: [
        { phoneNumber: '+12025550101', state: 'Delivered' },
        { phoneNumber: '+12025550102', state: 'Failed', error: '6 Timeout' },
      ],
      states: { Pending: '2026-11-27T10:00:00.000Z', Sent: '2026-11-27T10:00:02.000Z' },
    });
  });
});

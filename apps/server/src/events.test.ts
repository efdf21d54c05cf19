import type { Order } from '@simdock/contract';
import { describe, expect, it } from 'vitest';
import { EVENT_PAYLOAD_MAX_BYTES, eventPayload, parseEvent } from './events.ts';

const order = (smsText: string | null): Order => ({
  id: '42',
  serviceCode: 'tg',
  serviceName: 'Telegram',
  phoneNumber: '15550001001',
  codeText: '48213',
  smsText,
  status: 'SUCCESS',
  price: 0.5,
  createdAt: '2026-11-26T10:00:00.000Z',
  expiresAt: '2026-11-26T10:20:00.000Z',
  cancelableAt: '2026-11-26T10:02:00.000Z',
});

describe('event payloads (NOTIFY: at most 8,000 bytes)', () => {
  it('an order event carries the order when it fits, so the stream needs no read', () => {
    const event = {
      type: 'order' as const,
      userId: 'u1',
      orderId: '42',
      order: order('Telegram code 48213'),
    };
    expect(parseEvent(eventPayload(event))).toEqual(event);
  });

  it('leaves the order out when it would not fit (a long SMS), keeping the ids for the read', () => {
    // Multi-byte text: the limit is in bytes, not characters.
    const long = order(`Код 48213 ${'я'.repeat(4000)}`);
    expect(JSON.stringify(long).length).toBeLessThan(EVENT_PAYLOAD_MAX_BYTES);
    const payload = eventPayload({ type: 'order', userId: 'u1', orderId: '42', order: long });
    expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(EVENT_PAYLOAD_MAX_BYTES);
    expect(parseEvent(payload)).toEqual({ type: 'order', userId: 'u1', orderId: '42' });
  });

  it('other events go as they are', () => {
    const event = { type: 'gateway' as const, gatewayId: 'g1' };
    expect(eventPayload(event)).toBe(JSON.stringify(event));
  });
});

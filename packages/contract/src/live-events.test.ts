import { describe, expect, it, vi } from 'vitest';
import { dispatchLiveEvent, isLiveEventName, type LiveHandlers, parseLiveEvent } from './live-events.ts';

const order = {
  id: 'o1',
  serviceCode: 'wa',
  serviceName: 'WhatsApp',
  phoneNumber: '13105550101',
  codeText: '123456',
  smsText: 'Your code is 123456',
  status: 'SUCCESS',
  price: 0.5,
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T00:20:00.000Z',
  cancelableAt: '2026-01-01T00:02:00.000Z',
};

describe('parseLiveEvent', () => {
  it('answers the event with its data parsed by its schema', () => {
    expect(parseLiveEvent('order', JSON.stringify(order))).toEqual({ event: 'order', data: order });
    expect(parseLiveEvent('balance', '{"balance":30.5,"extra":1}')).toEqual({
      event: 'balance',
      data: { balance: 30.5 },
    });
  });

  it('ignores unknown events, data that is not JSON and data that does not fit', () => {
    expect(parseLiveEvent('message', '{}')).toBeUndefined();
    expect(parseLiveEvent('toString', '{}')).toBeUndefined();
    expect(parseLiveEvent('balance', 'not json')).toBeUndefined();
    expect(parseLiveEvent('balance', 'null')).toBeUndefined();
    expect(parseLiveEvent('balance', '{"balance":"lots"}')).toBeUndefined();
    expect(parseLiveEvent('order', JSON.stringify({ ...order, status: undefined }))).toBeUndefined();
  });

  it('knows the event names by own keys only', () => {
    expect(isLiveEventName('conversation')).toBe(true);
    expect(isLiveEventName('constructor')).toBe(false);
  });
});

describe('dispatchLiveEvent', () => {
  const handlers = () =>
    ({
      order: vi.fn(),
      balance: vi.fn(),
      payment: vi.fn(),
      campaign: vi.fn(),
      conversation: vi.fn(),
    }) satisfies LiveHandlers;

  it('hands the parsed data to the handler of its event only', () => {
    const h = handlers();
    expect(dispatchLiveEvent(h, 'balance', '{"balance":7}')).toBe(true);
    expect(h.balance).toHaveBeenCalledWith({ balance: 7 });
    expect(h.order).not.toHaveBeenCalled();
    expect(h.payment).not.toHaveBeenCalled();
  });

  it('runs no handler for a message it ignores', () => {
    const h = handlers();
    expect(dispatchLiveEvent(h, 'balance', '{"balance":"x"}')).toBe(false);
    expect(dispatchLiveEvent(h, 'ping', '{}')).toBe(false);
    for (const fn of Object.values(h)) expect(fn).not.toHaveBeenCalled();
  });
});

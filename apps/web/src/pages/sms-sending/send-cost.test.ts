import { describe, expect, it } from 'vitest';
import { amountUnits, costPreview, isFree } from './send-cost.ts';

const prices = (sms: number | string, mms: number | string = 0) => ({
  smsPricePerSegment: sms,
  mmsPrice: mms,
});
const r = (n: number) => Array.from({ length: n }, (_, i) => String(15550000000 + i));
/** 71 UCS-2 characters: two SMS segments (70 fit in one). */
const twoSegments = `Xin chào ${'ạ'.repeat(62)}`;

describe('costPreview (the cost shown before Start Mass Send)', () => {
  it('prices each recipient’s message after rotation, by its segments', () => {
    // r0 → one segment, r1 → two, r2 → one: 4 segments × 0.0075.
    const p = costPreview(r(3), `Hello\n${twoSegments}`, prices(0.0075), 10);
    expect(p).toEqual({ messages: 3, segments: 4, cost: 300, balance: 100_000, after: 99_700, short: false });
  });

  it('keeps four decimals exact', () => {
    expect(costPreview(r(3), 'Hi', prices('0.0075'), undefined)).toEqual({
      messages: 3,
      segments: 3,
      cost: 225,
      short: false,
    });
  });

  it('short when the balance does not cover it; exactly enough is fine', () => {
    expect(costPreview(r(4), 'Hi', prices(0.0075), 0.03)).toMatchObject({
      cost: 300,
      after: 0,
      short: false,
    });
    expect(costPreview(r(5), 'Hi', prices(0.0075), 0.03)).toMatchObject({
      cost: 375,
      after: -75,
      short: true,
    });
  });

  it('nothing to price: no recipient, no message, a line over 150 characters', () => {
    expect(costPreview([], 'Hi', prices(0.01), 5)).toBeUndefined();
    expect(costPreview(r(1), ' \n ', prices(0.01), 5)).toBeUndefined();
    expect(costPreview(r(1), 'x'.repeat(151), prices(0.01), 5)).toBeUndefined();
  });

  it('a price the contract cannot read gives no preview rather than a wrong one', () => {
    expect(costPreview(r(1), 'Hi', prices(0.00001), 5)).toBeUndefined();
  });

  it('free when the SMS price is 0, whatever the MMS price', () => {
    expect(isFree(prices(0, 0.5))).toBe(true);
    expect(isFree(prices('0.0000'))).toBe(true);
    expect(isFree(prices(0.0001))).toBe(false);
  });

  it('balances to ten-thousandths without float noise', () => {
    expect(amountUnits(9.9775)).toBe(99_775);
    expect(amountUnits(0.1 + 0.2)).toBe(3000);
  });
});

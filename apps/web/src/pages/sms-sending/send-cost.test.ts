import { describe, expect, it } from 'vitest';
import { amountUnits, costPreview, isFree, refusedDestinations } from './send-cost.ts';

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
    expect(p).toEqual({
      messages: 3,
      segments: 4,
      cost: 300,
      balance: 100_000,
      after: 99_700,
      short: false,
      groups: [{ country: 'US', messages: 3, segments: 4, cost: 300, enabled: true }],
    });
  });

  it('keeps four decimals exact', () => {
    expect(costPreview(r(3), 'Hi', prices('0.0075'), undefined)).toMatchObject({
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

describe('costPreview by destination country', () => {
  const byCountry = {
    smsPricePerSegment: '0.0075',
    mmsPrice: 0,
    countries: [
      { country: 'CA', smsPricePerSegment: '0.0913', mmsPrice: null, enabled: true },
      { country: 'JM', smsPricePerSegment: null, mmsPrice: null, enabled: false },
    ],
  };

  it('prices each recipient at its country’s price and groups them, exact to the ten-thousandth', () => {
    const p = costPreview(
      ['14165551001', '12025550123', '14165551002', '18765551234'],
      `Hi\n${twoSegments}`,
      byCountry,
      1,
    );
    // CA: 1 + 1 segments × 0.0913 (the second CA gets "Hi"); US: 2 × 0.0075; JM: 2 × 0.0075.
    expect(p?.groups).toEqual([
      { country: 'CA', messages: 2, segments: 2, cost: 1826, enabled: true },
      { country: 'US', messages: 1, segments: 2, cost: 150, enabled: true },
      { country: 'JM', messages: 1, segments: 2, cost: 150, enabled: false },
    ]);
    expect(p?.cost).toBe(2126);
  });

  it('tells the countries not enabled, and is not free when a country has a price', () => {
    expect(refusedDestinations(['18765551234', '12025550123'], byCountry)).toEqual([
      { country: 'JM', count: 1 },
    ]);
    expect(refusedDestinations(['12025550123'], { ...byCountry, otherCountriesEnabled: false })).toEqual([
      { country: 'US', count: 1 },
    ]);
    expect(isFree({ ...byCountry, smsPricePerSegment: 0 })).toBe(false);
    expect(
      isFree({
        smsPricePerSegment: 0,
        mmsPrice: 0,
        countries: [{ country: 'CA', smsPricePerSegment: null, mmsPrice: null, enabled: false }],
      }),
    ).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { resolvePrice } from './prices.ts';

const rows = [
  { country: 'DE', operator: '', price: '0.80' },
  { country: 'DE', operator: 'Vodafone', price: '1.15' },
  { country: 'VN', operator: 'Viettel', price: '0.35' },
];

describe('resolvePrice', () => {
  it("takes the operator's price in the country first, exact", () => {
    expect(resolvePrice('1.00', rows, 'DE', 'Vodafone')).toBe('1.15');
    expect(resolvePrice('1.00', rows, 'DE', 'vodafone ')).toBe('1.15');
  });

  it("takes the country's price for other operators and for none", () => {
    expect(resolvePrice('1.00', rows, 'DE', 'Telekom')).toBe('0.80');
    expect(resolvePrice('1.00', rows, 'DE', null)).toBe('0.80');
  });

  it("falls back to the service's price where the country has none of its own", () => {
    expect(resolvePrice('1.00', rows, 'US', 'T-Mobile')).toBe('1.00');
    // An operator's price does not make a country price for the other operators.
    expect(resolvePrice('1.00', rows, 'VN', 'Vinaphone')).toBe('1.00');
    expect(resolvePrice('1.00', rows, 'VN', 'Viettel')).toBe('0.35');
    expect(resolvePrice('1.00', rows, null, null)).toBe('1.00');
  });
});

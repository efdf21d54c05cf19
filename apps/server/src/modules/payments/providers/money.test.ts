import { describe, expect, it } from 'vitest';
import { centsOf, decimalFromJson, floorToCents, mulDivFloorCents, parseDecimal } from './money.ts';

describe('provider money helpers', () => {
  it('reads JSON amounts exactly, including exponent forms', () => {
    expect(decimalFromJson(0.04781784)).toBe('0.04781784');
    expect(decimalFromJson(10)).toBe('10');
    expect(decimalFromJson(1e-7)).toBe('0.0000001');
    expect(decimalFromJson('12.3400')).toBe('12.34');
    expect(decimalFromJson(1.5e21)).toBe('1500000000000000000000');
    expect(decimalFromJson(-1)).toBeNull();
    expect(decimalFromJson('abc')).toBeNull();
    expect(decimalFromJson(null)).toBeNull();
    expect(parseDecimal('1.0e2')).toEqual({ units: 100n, scale: 0 });
  });

  it('rounds down to cents, never up', () => {
    expect(floorToCents('10.004321')).toBe('10.00');
    expect(floorToCents('9.999999')).toBe('9.99');
    expect(floorToCents('4.567891')).toBe('4.56');
    expect(floorToCents('7')).toBe('7.00');
    expect(floorToCents('0.1')).toBe('0.10');
    expect(centsOf('12.349')).toBe(1234n);
  });

  it('values a coin at the invoice quote exactly (no float drift)', () => {
    // 10 USD quoted as 33.333333 TRX, 33.333333 TRX paid → 10.00
    expect(mulDivFloorCents('10', '33.333333', '33.333333')).toBe('10.00');
    // 10 × 16.6666665 / 33.333333 = 5 exactly; a hair less rounds down
    expect(mulDivFloorCents('10', '16.6666665', '33.333333')).toBe('5.00');
    expect(mulDivFloorCents('10', '16.666666', '33.333333')).toBe('4.99');
    expect(mulDivFloorCents('0.3', '3', '9')).toBe('0.10'); // floats would give 0.09999999999999999
    expect(mulDivFloorCents('10', '1', '0')).toBe('0.00');
  });
});

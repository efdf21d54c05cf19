import { describe, expect, it } from 'vitest';
import { centsOf, decimalFromJson, floorToCents, mulDivFloorCents, parseDecimal } from './money.ts';

describe('provider money helpers', () => {
  it('reads JSON numbers exactly (a tiny one in its exponent form), and decimal text only in its fixed form', () => {
    expect(decimalFromJson(0.04781784)).toBe('0.04781784');
    expect(decimalFromJson(10)).toBe('10');
    expect(decimalFromJson(1e-7)).toBe('0.0000001');
    expect(decimalFromJson('12.3400')).toBe('12.34');
    // No amount is that large: past 1e15 a number is refused, not read.
    expect(decimalFromJson(1.5e21)).toBeNull();
    expect(decimalFromJson(1e15)).toBeNull();
    expect(decimalFromJson(999999999999999)).toBe('999999999999999');
    // Text: "1e3" is no amount (it was credited as 1,000 once), nor a sign, spaces or hex.
    for (const bad of [
      '1e3',
      '1E3',
      '1.5e-7',
      '-1',
      '+5',
      ' 10',
      '10 ',
      '0x10',
      '',
      'Infinity',
      '.5',
      '1,000',
    ])
      expect([bad, decimalFromJson(bad)]).toEqual([bad, null]);
    expect(decimalFromJson(Number.POSITIVE_INFINITY)).toBeNull();
    expect(decimalFromJson(true)).toBeNull();
    expect(decimalFromJson({ amount: 1 })).toBeNull();
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

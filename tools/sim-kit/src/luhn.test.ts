import { describe, expect, it } from 'vitest';
import { luhnDigit } from './luhn.ts';

describe('luhnDigit', () => {
  it('gives the check digit of a real IMEI and of an ICCID body', () => {
    expect(luhnDigit('49015420323751')).toBe('8'); // IMEI 490154203237518
    expect(luhnDigit('7992739871')).toBe('3'); // the textbook example 79927398713
  });
});

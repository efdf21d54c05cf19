import { describe, expect, it } from 'vitest';
import { shortPaymentId, TOPUP_MAX, topupAmountProblem } from './payments.ts';

describe('topupAmountProblem', () => {
  it.each([10, 10.5, 25.25, 99.99, TOPUP_MAX, 10.1])('accepts %s', (v) => {
    expect(topupAmountProblem(v)).toBeNull();
  });
  it.each([
    ['10', 'notNumber'],
    [null, 'notNumber'],
    [Number.NaN, 'notNumber'],
    [Number.POSITIVE_INFINITY, 'notNumber'],
    [9.99, 'belowMin'],
    [-50, 'belowMin'],
    [0, 'belowMin'],
    [TOPUP_MAX + 0.01, 'aboveMax'],
    [1e308, 'aboveMax'],
    [10.005, 'decimals'],
    [12.345, 'decimals'],
  ])('refuses %s', (v, msg) => {
    expect(topupAmountProblem(v)).toBe(msg);
  });
});

describe('shortPaymentId', () => {
  it('keeps ids of up to 12 characters', () => {
    expect(shortPaymentId('123456789012')).toBe('123456789012');
  });
  it('shortens longer ids to first 6 + dots + last 4', () => {
    expect(shortPaymentId('a1b2c3d4-e5f6-4711-9abc-def012345678')).toBe('a1b2c3...5678');
  });
});

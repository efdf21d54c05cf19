import { describe, expect, it } from 'vitest';
import { roleClaim, rolesFromClaim } from './roles.ts';
import {
  adminPaymentTone,
  deviceSuccessTone,
  gatewaySuccessTone,
  orderStatusTone,
  percent,
  userPaymentTone,
} from './status.ts';

describe('status colours (docs/product.md#states-and-colours)', () => {
  it.each([
    ['SUCCESS', 'green'],
    ['WAIT_CODE', 'yellow'],
    ['CANCEL', 'grey'],
    ['TIMEOUT', 'red'],
  ])('order %s → %s', (s, tone) => expect(orderStatusTone(s)).toBe(tone));

  it.each([
    ['PENDING', 'yellow'],
    ['PAID', 'green'],
    ['DONE', 'green'],
    ['FAILED', 'red'],
    ['EXPIRED', 'grey'],
  ])('user payment %s → %s', (s, tone) => expect(userPaymentTone(s)).toBe(tone));

  it.each([
    ['DONE', 'green'],
    ['PENDING', 'yellow'],
    ['PAID', 'red'],
    ['FAILED', 'red'],
  ])('admin payment %s → %s', (s, tone) => expect(adminPaymentTone(s)).toBe(tone));

  it('device stats: green at 50% or more', () => {
    expect(deviceSuccessTone(5, 10)).toBe('green');
    expect(deviceSuccessTone(4, 10)).toBe('red');
    expect(deviceSuccessTone(0, 0)).toBe('red');
  });

  it('order manager: green above 60%', () => {
    expect(gatewaySuccessTone(60.1)).toBe('green');
    expect(gatewaySuccessTone(60)).toBe('red');
  });

  it('percent keeps one decimal', () => {
    expect(percent(7, 8)).toBe(87.5);
    expect(percent(1, 3)).toBe(33.3);
    expect(percent(1, 0)).toBe(0);
  });
});

describe('role claim', () => {
  it('is a string for one role and a list for several', () => {
    expect(roleClaim(['User'])).toBe('User');
    expect(roleClaim(['User', 'SMS'])).toEqual(['User', 'SMS']);
    expect(rolesFromClaim('Admin9')).toEqual(['Admin9']);
    expect(rolesFromClaim(['User', 'Bogus'])).toEqual(['User']);
    expect(rolesFromClaim(undefined)).toEqual([]);
  });
});

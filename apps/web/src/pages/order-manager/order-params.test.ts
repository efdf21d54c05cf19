import { describe, expect, it } from 'vitest';
import { hasFilters, NO_FILTERS, optionsWith, readOrderParams, writeOrderParams } from './order-params.ts';

describe('Order Manager URL state', () => {
  it('reads page and filters, falling back to page 1 and no filter', () => {
    expect(readOrderParams(new URLSearchParams(''))).toEqual({ page: 1, ...NO_FILTERS });
    expect(
      readOrderParams(new URLSearchParams('page=3&phone=%201555%20&gateway=gw-a&status=SUCCESS')),
    ).toEqual({ page: 3, phoneNumber: '1555', gateway: 'gw-a', status: 'SUCCESS' });
    for (const bad of ['0', '-2', '1.5', 'x']) {
      expect(readOrderParams(new URLSearchParams(`page=${bad}`)).page).toBe(1);
    }
  });

  it('writes only what differs from the defaults, and round-trips', () => {
    expect(writeOrderParams({ page: 1, ...NO_FILTERS }).toString()).toBe('');
    const p = { page: 2, phoneNumber: '15550000001', gateway: 'gw a', status: 'WAIT_CODE' };
    const qs = writeOrderParams(p);
    expect(qs.toString()).toBe('page=2&phone=15550000001&gateway=gw+a&status=WAIT_CODE');
    expect(readOrderParams(qs)).toEqual(p);
  });

  it('keeps the params that are not its own (the Unmatched SMS page), replacing its own', () => {
    const before = new URLSearchParams('page=4&status=CANCEL&smsPage=3');
    expect(writeOrderParams({ page: 1, ...NO_FILTERS }, before).toString()).toBe('smsPage=3');
  });

  it('knows when filters are active and keeps an unknown current option selectable', () => {
    expect(hasFilters(NO_FILTERS)).toBe(false);
    expect(hasFilters({ ...NO_FILTERS, phoneNumber: ' ' })).toBe(false);
    expect(hasFilters({ ...NO_FILTERS, status: 'CANCEL' })).toBe(true);
    expect(optionsWith(['a', 'b'], '')).toEqual(['a', 'b']);
    expect(optionsWith(['a', 'b'], 'b')).toEqual(['a', 'b']);
    expect(optionsWith(['a', 'b'], 'old')).toEqual(['a', 'b', 'old']);
  });
});

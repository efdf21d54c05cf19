import { describe, expect, it } from 'vitest';
import { keptForSending } from './sending-share.ts';

const sims = (both: number, rental = 0) => [
  ...Array.from({ length: both }, () => ({ role: 'both' })),
  ...Array.from({ length: rental }, () => ({ role: 'rental' })),
];

describe('keptForSending', () => {
  it('keeps the percent of the SIMs with role Both, rounded down', () => {
    expect(keptForSending(sims(16), 20)).toBe(3);
    expect(keptForSending(sims(5), 20)).toBe(1);
    expect(keptForSending(sims(10, 40), 20)).toBe(2); // Rental only SIMs are not counted
    expect(keptForSending(sims(49), 20)).toBe(9);
  });
  it('keeps none of a small fleet, none at 0 %, all at 100 %', () => {
    expect(keptForSending(sims(1), 20)).toBe(0);
    expect(keptForSending(sims(4), 20)).toBe(0);
    expect(keptForSending(sims(16), 0)).toBe(0);
    expect(keptForSending(sims(16), 100)).toBe(16);
    expect(keptForSending([], 50)).toBe(0);
  });
});

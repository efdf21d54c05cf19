import { describe, expect, it } from 'vitest';
import { seededRandom } from './random.ts';
import { Timers } from './timers.ts';

describe('Timers', () => {
  it('runs what is due and drops what clear() cancels', async () => {
    const timers = new Timers();
    const ran: string[] = [];
    timers.later(1, () => ran.push('soon'));
    timers.later(40, () => ran.push('late'));
    await new Promise((r) => setTimeout(r, 20));
    timers.clear();
    await new Promise((r) => setTimeout(r, 40));
    expect(ran).toEqual(['soon']);
  });
});

describe('seededRandom', () => {
  it('repeats for a seed, differs between seeds, stays in [0, 1)', () => {
    const take = (seed: number) => {
      const r = seededRandom(seed);
      return Array.from({ length: 50 }, () => r());
    };
    expect(take(7)).toEqual(take(7));
    expect(take(7)).not.toEqual(take(8));
    expect(take(7).every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

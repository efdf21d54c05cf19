import { describe, expect, it } from 'vitest';
import { dayBounds, todayText } from './history-range.ts';

describe('history day range', () => {
  it('today as YYYY-MM-DD in local time', () => {
    expect(todayText(new Date(2026, 10, 3, 23, 59))).toBe('2026-11-03');
  });
  it('covers whole local days, first second to last second', () => {
    const r = dayBounds('2026-11-03', '2026-11-04')!;
    expect(r.strTime).toBe(new Date(2026, 10, 3).getTime() / 1000);
    expect(r.endTime).toBe(new Date(2026, 10, 5).getTime() / 1000 - 1);
  });
  it('refuses impossible dates', () => {
    expect(dayBounds('2026-02-30', '2026-03-01')).toBeNull();
    expect(dayBounds('', '2026-03-01')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { dayBounds, presetOf, presetRange, todayText } from './history-range.ts';

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
  it('presets count today in: 7 days ends today and starts 6 days before, across a month end', () => {
    const now = new Date(2026, 2, 3, 10, 0);
    expect(presetRange('today', now)).toEqual({ start: '2026-03-03', end: '2026-03-03' });
    expect(presetRange('days7', now)).toEqual({ start: '2026-02-25', end: '2026-03-03' });
    expect(presetRange('days30', now)).toEqual({ start: '2026-02-02', end: '2026-03-03' });
    expect(presetOf({ start: '2026-02-25', end: '2026-03-03' }, now)).toBe('days7');
    expect(presetOf({ start: '2026-02-24', end: '2026-03-03' }, now)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { LAST_SEEN_EVERY_MS, lastSeenDue } from './last-seen.ts';

describe('lastSeenDue', () => {
  const t = 1_700_000_000_000;
  it('writes the first time and again once the window has passed', () => {
    expect(lastSeenDue(undefined, t)).toBe(true);
    expect(lastSeenDue(t, t)).toBe(false);
    expect(lastSeenDue(t, t + LAST_SEEN_EVERY_MS - 1)).toBe(false);
    expect(lastSeenDue(t, t + LAST_SEEN_EVERY_MS)).toBe(true);
  });
  it('writes again when the clock went back', () => {
    expect(lastSeenDue(t, t - 1)).toBe(true);
  });
});

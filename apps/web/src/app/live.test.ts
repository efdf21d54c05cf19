import { afterEach, describe, expect, it, vi } from 'vitest';
import { flashTitle } from './live.tsx';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('flashTitle', () => {
  it('alternates the tab title while the tab is hidden and restores it when shown', () => {
    vi.useFakeTimers();
    document.title = 'Dashboard · SimDock';
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    flashTitle('(1) New code 12345');
    expect(document.title).toBe('(1) New code 12345');
    vi.advanceTimersByTime(1000);
    expect(document.title).toBe('Dashboard · SimDock');
    vi.advanceTimersByTime(1000);
    expect(document.title).toBe('(1) New code 12345');
    hidden.mockReturnValue(false);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(document.title).toBe('Dashboard · SimDock');
    vi.advanceTimersByTime(3000);
    expect(document.title).toBe('Dashboard · SimDock');
  });

  it('does nothing while the tab is visible', () => {
    document.title = 'Dashboard · SimDock';
    vi.spyOn(document, 'hidden', 'get').mockReturnValue(false);
    flashTitle('(1) New code 1');
    expect(document.title).toBe('Dashboard · SimDock');
  });
});

import { act, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../i18n/index.tsx';
import { RelativeTime } from './RelativeTime.tsx';

const wrap = (ui: ReactNode) => render(<I18nProvider initial="en">{ui}</I18nProvider>);
const T0 = new Date(2026, 10, 22, 14, 0, 0).getTime();

describe('RelativeTime', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps ticking without new data, with the exact time as tooltip', () => {
    wrap(<RelativeTime value={new Date(T0 - 38_000)}>{(time) => `Last report ${time}`}</RelativeTime>);
    expect(screen.getByText('Last report 38 s ago')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(24_000));
    expect(screen.getByText('Last report 1 min ago')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(5 * 60_000));
    expect(screen.getByText('Last report 6 min ago').getAttribute('title')).toBe('2026-11-22 13:59:22');
  });

  it('counts on the server clock when given its skew', () => {
    // The server is 10 s ahead: its stamp of 20 s ago looks only 10 s old on the local clock.
    wrap(<RelativeTime value={new Date(T0 + 10_000 - 20_000)} skewMs={10_000} />);
    expect(screen.getByText('20 s ago')).toBeTruthy();
  });

  it('reads server numbers as unix seconds', () => {
    wrap(<RelativeTime value={T0 / 1000 - 120} />);
    expect(screen.getByText('2 min ago')).toBeTruthy();
  });
});

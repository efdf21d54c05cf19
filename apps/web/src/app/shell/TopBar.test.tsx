import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../../i18n/index.tsx';
import { notifications } from '../../live/notifications.ts';
import { NotificationBell } from './TopBar.tsx';

const T0 = new Date(2026, 10, 22, 14, 0, 0).getTime();

describe('NotificationBell', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    notifications.setOwner(null);
    vi.useRealTimers();
  });

  it("the bell's entries say how long ago a code came, and keep counting", () => {
    notifications.setOwner('ann');
    notifications.add({
      kind: 'code',
      href: '/',
      params: { code: '123456', service: 'Acme', phone: '1555' },
    });
    const router = createMemoryRouter([{ path: '/', element: <NotificationBell /> }]);
    render(
      <I18nProvider initial="en">
        <RouterProvider router={router} />
      </I18nProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: /Notifications/ }));
    expect(screen.getByText('just now')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(30_000));
    expect(screen.getByText('30 s ago')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(2 * 3_600_000));
    expect(screen.getByText('2 h ago')).toBeTruthy();
    expect(screen.queryByText(/ d$/)).toBeNull();
  });
});

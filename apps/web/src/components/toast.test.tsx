import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, Link, Outlet, RouterProvider, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ThemeProvider } from '../lib/theme.tsx';
import { notify, Toaster } from './toast.tsx';

function Layout() {
  const navigate = useNavigate();
  return (
    <>
      <Toaster />
      <button
        type="button"
        onClick={() => notify.topUp('Balance too low', 'Top Up', () => navigate('/topup'))}
      >
        rent
      </button>
      <Link to="/topup">menu: Top up</Link>
      <Link to="/orders">menu: Orders</Link>
      <Outlet />
    </>
  );
}

function renderShell() {
  const router = createMemoryRouter(
    [
      {
        element: <Layout />,
        children: [
          { path: '/', element: <p>dashboard</p> },
          { path: '/topup', element: <p>top-up page</p> },
          { path: '/orders', element: <p>orders page</p> },
        ],
      },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <ThemeProvider>
      <RouterProvider router={router} />
    </ThemeProvider>,
  );
  return router;
}

describe('toasts: a "top up first" toast belongs to its attempt', () => {
  it('closes once the user reaches the Top-up page some other way (the menu)', async () => {
    renderShell();
    fireEvent.click(screen.getByRole('button', { name: 'rent' }));
    expect(await screen.findByText('Balance too low')).toBeTruthy();
    // Another page keeps it: the advice still stands there.
    fireEvent.click(screen.getByRole('link', { name: 'menu: Orders' }));
    await screen.findByText('orders page');
    expect(screen.getByText('Balance too low')).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'menu: Top up' }));
    await screen.findByText('top-up page');
    await waitFor(() => expect(screen.queryByText('Balance too low')).toBeNull());
  });

  it('closes when its action is taken, and a repeated refusal shows one toast, not a stack', async () => {
    const router = renderShell();
    fireEvent.click(screen.getByRole('button', { name: 'rent' }));
    fireEvent.click(screen.getByRole('button', { name: 'rent' }));
    await screen.findByText('Balance too low');
    await waitFor(() => expect(screen.getAllByText('Balance too low')).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Top Up' }));
    await screen.findByText('top-up page');
    await waitFor(() => expect(screen.queryByText('Balance too low')).toBeNull());
    // Back on the dashboard, a new refusal shows again (the first one was not remembered as dismissed).
    await act(() => router.navigate('/'));
    fireEvent.click(screen.getByRole('button', { name: 'rent' }));
    expect(await screen.findByText('Balance too low')).toBeTruthy();
  });
});

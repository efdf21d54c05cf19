import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp } from '../../test/utils.tsx';

describe('Landing page (/home)', () => {
  it('calls the way in "Sign In" as the sign-in page does, and promises only what is true of reuse', async () => {
    mockFetch((path) =>
      path === '/api/Service/getall' ? { body: { code: 1, services: [] } } : { body: {} },
    );
    renderApp('/home');
    const links = await screen.findAllByRole('link', { name: 'Sign In' });
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
    expect(document.body.textContent).not.toContain('never given to you twice');
    expect(screen.getByText(/taken out of that service’s pool/)).toBeTruthy();
  });
});

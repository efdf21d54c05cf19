import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';

// Speech input users say what they see ("click Pay Now"): the link's accessible name must start with
// its visible text (WCAG 2.5.3, label in name), and still tell the invoices apart.
describe('Top up: Pay Now', () => {
  it('has an accessible name that starts with its visible text and names the invoice', async () => {
    localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann')));
    mockFetch((path) => {
      if (path === '/api/user/info') return { body: userInfoFor('ann', ['User']) };
      if (path.startsWith('/api/Payments/options'))
        return {
          body: { provider: 'sandbox', sandbox: true, minAmount: 10, maxAmount: 1000, payCurrency: null },
        };
      if (path.startsWith('/api/Payments/history'))
        return {
          body: {
            items: [
              {
                id: 'pay_0123456789abcdef',
                amount: 25,
                status: 'PENDING',
                createdAt: '2026-11-20T10:00:00.000Z',
                url: '/sandbox/pay/pay_0123456789abcdef',
                cancelled: false,
              },
            ],
            page: 1,
            totalPages: 1,
          },
        };
      return { body: { code: 1, data: [] } };
    });
    renderApp('/topup');
    const link = await screen.findByRole('link', { name: /Pay Now/ }, { timeout: 14_000 });
    const name = link.getAttribute('aria-label') ?? '';
    const visible = (link.textContent ?? '').trim();
    expect(visible).toBe('Pay Now');
    expect(name.startsWith(visible)).toBe(true);
    expect(name).toMatch(/invoice \S+/);
  }, 15_000);
});

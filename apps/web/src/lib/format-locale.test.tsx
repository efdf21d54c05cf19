import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { I18nProvider, loadLanguage, useI18n } from '../i18n/index.tsx';
import { formatDate, formatDateTime, formatMoney, formatNumber, formatPercent } from './format.ts';

beforeAll(() => loadLanguage('vi'));
afterEach(cleanup);

const when = new Date(2026, 10, 22, 14, 5, 9);

/** What a screen shows: the formatters called while rendering, with no language passed. */
function Figures() {
  const { setLang } = useI18n();
  return (
    <>
      <p data-testid="figures">
        {[
          formatNumber(12345),
          formatPercent(87.46),
          formatMoney('1234.5'),
          formatMoney(-0.0225),
          formatDate(when),
          formatDateTime(when),
        ].join(' | ')}
      </p>
      <button type="button" onClick={() => setLang('vi')}>
        vi
      </button>
      <button type="button" onClick={() => setLang('en')}>
        en
      </button>
    </>
  );
}

describe('formats follow the language of i18n', () => {
  it('English: 12,345, 87.5%, $1,234.50, YYYY-MM-DD', () => {
    render(
      <I18nProvider initial="en">
        <Figures />
      </I18nProvider>,
    );
    expect(screen.getByTestId('figures').textContent).toBe(
      '12,345 | 87.5% | $1,234.50 | -$0.0225 | 2026-11-22 | 2026-11-22 14:05',
    );
  });

  it('Vietnamese once chosen: 12.345, 87,5%, 1.234,50 US$, DD/MM/YYYY; and back', async () => {
    render(
      <I18nProvider initial="en">
        <Figures />
      </I18nProvider>,
    );
    await act(async () => screen.getByRole('button', { name: 'vi' }).click());
    expect(screen.getByTestId('figures').textContent).toBe(
      '12.345 | 87,5% | 1.234,50\u00a0US$ | -0,0225\u00a0US$ | 22/11/2026 | 22/11/2026 14:05',
    );
    await act(async () => screen.getByRole('button', { name: 'en' }).click());
    expect(screen.getByTestId('figures').textContent).toContain('12,345 | 87.5% | $1,234.50');
  });
});

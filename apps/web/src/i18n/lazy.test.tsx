import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { I18nProvider, isLanguageLoaded, LANG_STORAGE_KEY, translate, useI18n } from './index.tsx';

function Probe() {
  const { t, lang, setLang } = useI18n();
  return (
    <div>
      <p>{t('common.pageOf', { page: 2, total: 9 })}</p>
      <button type="button" onClick={() => setLang(lang === 'en' ? 'vi' : 'en')}>
        switch
      </button>
    </div>
  );
}

// English ships in the initial bundle; Vietnamese is a chunk fetched when it is chosen.
describe('the Vietnamese catalogue loads on demand', () => {
  it('is not loaded up front; switching fetches it, then shows it, persists it and sets <html lang>', async () => {
    expect(isLanguageLoaded('en')).toBe(true);
    expect(isLanguageLoaded('vi')).toBe(false);
    render(
      <I18nProvider initial="en">
        <Probe />
      </I18nProvider>,
    );
    screen.getByText('Page 2 / 9');

    fireEvent.click(screen.getByRole('button', { name: 'switch' }));
    await screen.findByText('Trang 2 / 9');
    expect(isLanguageLoaded('vi')).toBe(true);
    expect(localStorage.getItem(LANG_STORAGE_KEY)).toBe('vi');
    expect(document.documentElement.lang).toBe('vi');
    expect(translate('common.pageOf', { page: 1, total: 2 })).toBe('Trang 1 / 2');

    fireEvent.click(screen.getByRole('button', { name: 'switch' }));
    await screen.findByText('Page 2 / 9');
    expect(localStorage.getItem(LANG_STORAGE_KEY)).toBe('en');
  });
});

import { Languages, Moon, Sun } from 'lucide-react';
import { Link } from 'react-router';
import { LANGUAGES, type Language, useI18n } from '../i18n/index.tsx';
import { cx } from '../lib/cx.ts';
import { useTheme } from '../lib/theme.tsx';

/** Controls shared by the shell's top bar and the public pages' header. */
export const ICON_BUTTON =
  'inline-flex size-9 items-center justify-center rounded-md text-muted hover:bg-subtle hover:text-fg';

/**
 * "Skip to content": the first stop of Tab on every page, shown once focused. It moves the focus
 * to the page's <main id="main"> (made focusable for it), so the next Tab starts in the content.
 */
export function SkipLink() {
  const { t } = useI18n();
  return (
    // biome-ignore lint/a11y/useValidAnchor: a real in-page link; the handler only makes the target focusable
    <a
      href="#main"
      onClick={(e) => {
        const main = document.getElementById('main');
        if (!main) return;
        e.preventDefault();
        if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
        main.focus();
        main.scrollIntoView({ block: 'start' });
      }}
      className="sr-only z-50 rounded-md bg-accent px-3 py-2 text-accent-fg focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
    >
      {t('common.skipToContent')}
    </a>
  );
}

/** Logo mark + name. `compact`: the name only from 640 px up. */
export function Logo({ to = '/dashboard', compact }: { to?: string; compact?: boolean }) {
  const { t } = useI18n();
  return (
    <Link
      to={to}
      aria-label={t('app.name')}
      className="flex items-center gap-2 rounded-md font-semibold tracking-tight text-fg"
    >
      <img src="/favicon.svg" alt="" className="size-7" />
      <span className={cx('text-[15px]', compact && 'hidden sm:inline')}>{t('app.name')}</span>
    </Link>
  );
}

/**
 * Language choice (persisted); used in the shell and on public pages. A native select drawn as the
 * icon button: the phone's own picker, full keyboard support, and no menu code on the login page.
 */
export function LanguageSwitch() {
  const { t, lang, setLang } = useI18n();
  return (
    <span
      className={cx(
        ICON_BUTTON,
        'relative w-auto gap-1 px-2 focus-within:outline-2 focus-within:outline-accent',
      )}
    >
      <Languages className="size-[18px]" aria-hidden />
      <span className="text-xs font-semibold uppercase" aria-hidden>
        {lang}
      </span>
      <select
        value={lang}
        aria-label={`${t('shell.language')}: ${t(`lang.${lang}`)}`}
        onChange={(e) => setLang(e.target.value as Language)}
        className="absolute inset-0 cursor-pointer appearance-none opacity-0"
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {t(`lang.${l}`)}
          </option>
        ))}
      </select>
    </span>
  );
}

export function ThemeToggle() {
  const { t } = useI18n();
  const { theme, toggle } = useTheme();
  return (
    <button
      type="button"
      onClick={toggle}
      aria-label={theme === 'dark' ? t('shell.themeToLight') : t('shell.themeToDark')}
      className={ICON_BUTTON}
    >
      {theme === 'dark' ? (
        <Sun className="size-[18px]" aria-hidden />
      ) : (
        <Moon className="size-[18px]" aria-hidden />
      )}
    </button>
  );
}

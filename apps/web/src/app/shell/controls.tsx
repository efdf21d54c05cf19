import { Check, Languages, Moon, Sun } from 'lucide-react';
import { Link } from 'react-router';
import { LANGUAGES, useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { useTheme } from '../theme.tsx';
import { Popover } from './Popover.tsx';

/** Controls shared by the shell's top bar and the public pages' header. */
export const ICON_BUTTON =
  'inline-flex size-9 items-center justify-center rounded-md text-muted hover:bg-subtle hover:text-fg';

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

/** Language menu (persisted); used in the shell and on public pages. */
export function LanguageSwitch() {
  const { t, lang, setLang } = useI18n();
  return (
    <Popover
      label={`${t('shell.language')}: ${t(`lang.${lang}`)}`}
      buttonClassName={cx(ICON_BUTTON, 'w-auto gap-1 px-2')}
      button={
        <>
          <Languages className="size-[18px]" aria-hidden />
          <span className="text-xs font-semibold uppercase">{lang}</span>
        </>
      }
      panelClassName="w-40"
    >
      {(close) => (
        <ul>
          {LANGUAGES.map((l) => (
            <li key={l}>
              <button
                type="button"
                lang={l}
                aria-current={l === lang ? 'true' : undefined}
                onClick={() => {
                  setLang(l);
                  close();
                }}
                className="flex w-full items-center justify-between rounded-md px-2.5 py-1.5 text-left text-sm hover:bg-subtle"
              >
                {t(`lang.${l}`)}
                {l === lang ? <Check className="size-4 text-accent" aria-hidden /> : null}
              </button>
            </li>
          ))}
        </ul>
      )}
    </Popover>
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

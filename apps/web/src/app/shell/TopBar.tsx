import { Bell, Check, Languages, Menu, Moon, Sun } from 'lucide-react';
import { Link } from 'react-router';
import { useMeta } from '../../api/meta.ts';
import { LANGUAGES, useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { formatMoney } from '../../lib/format.ts';
import { useSession } from '../session.tsx';
import { useTheme } from '../theme.tsx';
import { Popover } from './Popover.tsx';

const ICON_BUTTON =
  'inline-flex size-9 items-center justify-center rounded-md text-muted hover:bg-subtle hover:text-fg';

/** Logo mark + name; links to the dashboard. `compact`: the name only from 640 px up. */
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

/** Labels demo mode (simulated gateway, seeded data) so nobody mistakes it for the real service. */
export function DemoBadge() {
  const { t } = useI18n();
  const meta = useMeta();
  if (!meta.data?.demo) return null;
  return (
    <span
      title={t('shell.demoHint')}
      className="rounded-full bg-warn-soft px-2 py-0.5 text-xs font-semibold text-warn"
      data-testid="demo-badge"
    >
      {t('shell.demo')}
    </span>
  );
}

export function TopBar({ onOpenMenu }: { onOpenMenu: () => void }) {
  const { t } = useI18n();
  const { user } = useSession();
  const username = user?.username ?? '';
  const balance = formatMoney(user?.balance ?? 0);
  return (
    <header className="fixed inset-x-0 top-0 z-30 flex h-14 items-center gap-2 border-b border-line bg-surface/95 px-3 backdrop-blur md:px-4">
      <button
        type="button"
        onClick={onOpenMenu}
        aria-label={t('nav.openMenu')}
        className={cx(ICON_BUTTON, 'md:hidden')}
      >
        <Menu className="size-5" aria-hidden />
      </button>
      <Logo compact />
      <DemoBadge />
      <div className="ml-auto flex items-center gap-0.5 sm:gap-1">
        <Popover
          label={t('shell.notifications')}
          buttonClassName={ICON_BUTTON}
          button={<Bell className="size-[18px]" aria-hidden />}
          panelClassName="w-64"
        >
          {() => <p className="px-3 py-4 text-center text-sm text-muted">{t('shell.noNotifications')}</p>}
        </Popover>
        {/* Below 640 px these two live in the drawer's header. */}
        <div className="hidden items-center gap-1 sm:flex">
          <LanguageSwitch />
          <ThemeToggle />
        </div>
        <Link
          to="/topup"
          aria-label={t('shell.balanceTopUp', { amount: balance })}
          className="mx-1 inline-flex rounded-full border border-line bg-subtle px-2.5 py-1 text-[13px] font-semibold text-fg tabular hover:border-accent"
          data-testid="shell-balance"
        >
          {balance}
        </Link>
        <Link
          to="/userinfo"
          className="flex items-center gap-2 rounded-full py-1 pr-1 pl-1 hover:bg-subtle sm:pr-2.5"
          aria-label={t('shell.account', { username })}
        >
          <span
            className="flex size-8 items-center justify-center rounded-full bg-accent text-sm font-semibold text-accent-fg uppercase"
            aria-hidden
          >
            {username.charAt(0) || '?'}
          </span>
          <span
            className="hidden max-w-32 truncate text-sm font-medium text-fg sm:inline"
            data-testid="shell-username"
          >
            {username}
          </span>
        </Link>
      </div>
    </header>
  );
}

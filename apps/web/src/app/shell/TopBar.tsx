import { Bell, KeyRound, Menu, MessageSquareText } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { useMeta } from '../../api/meta.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { ICON_BUTTON, LanguageSwitch, Logo, ThemeToggle } from '../../components/controls.tsx';
import { Popover } from '../../components/Popover.tsx';
import { RelativeTime } from '../../components/RelativeTime.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { formatMoney, formatPhone } from '../../lib/format.ts';
import { type AppNotification, notifications, useNotifications } from '../../live/notifications.ts';
import { useSession } from '../../session/session.tsx';

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

function NotificationItem({ n, onOpen }: { n: AppNotification; onOpen: () => void }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const sms = n.kind === 'sms';
  const phone = formatPhone(n.params.phone);
  return (
    <li className={cx('flex items-start gap-2.5 rounded-md px-2.5 py-2', !n.read && 'bg-accent-soft/60')}>
      <span className="mt-0.5 rounded-full bg-ok-soft p-1.5 text-ok" aria-hidden>
        {sms ? <MessageSquareText className="size-3.5" /> : <KeyRound className="size-3.5" />}
      </span>
      <div className="min-w-0 flex-1">
        <button
          type="button"
          onClick={() => {
            onOpen();
            navigate(n.href);
          }}
          className="block text-left text-sm font-medium text-fg hover:underline"
        >
          {sms
            ? t('notify.smsTitle', { service: n.params.service ?? '' })
            : t('notify.codeTitle', { code: n.params.code ?? '', service: n.params.service ?? '' })}
        </button>
        {sms ? <p className="line-clamp-3 text-xs break-words text-fg">{n.params.text}</p> : null}
        <p className="text-xs text-muted">
          {t('notify.codeBody', { phone })} ·{' '}
          {/* `at` is this browser's Date.now() (ms), not a server time in unix seconds. */}
          <RelativeTime value={new Date(n.at)} />
        </p>
      </div>
      {sms && n.params.text ? (
        <CopyButton value={n.params.text} name={t('notify.smsName', { phone })} />
      ) : n.params.code ? (
        <CopyButton value={n.params.code} />
      ) : null}
      {!n.read ? <span className="sr-only">{t('notify.unread', { count: 1 })}</span> : null}
    </li>
  );
}

/** The bell: unread count on the button; the panel lists the notifications and marks them read. */
export function NotificationBell() {
  const { t } = useI18n();
  const { items, unread } = useNotifications();
  return (
    <Popover
      label={
        unread
          ? `${t('shell.notifications')}, ${t('notify.unread', { count: unread })}`
          : t('shell.notifications')
      }
      buttonClassName={cx(ICON_BUTTON, 'relative')}
      button={
        <>
          <Bell className="size-[18px]" aria-hidden />
          {unread ? (
            <span
              className="absolute top-1 right-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-bad px-1 text-[10px] font-bold leading-none text-white dark:text-page"
              data-testid="bell-count"
              aria-hidden
            >
              {unread > 9 ? '9+' : unread}
            </span>
          ) : null}
        </>
      }
      panelClassName="w-80"
      onOpenChange={(open) => {
        // Seen once the panel closes (while open the new ones stay highlighted).
        if (!open) notifications.markAllRead();
      }}
    >
      {(close) => (
        <div>
          <div className="flex items-center justify-between gap-2 border-b border-line px-2.5 pt-1 pb-2">
            <p className="text-sm font-semibold">{t('shell.notifications')}</p>
            {items.length ? (
              <div className="flex gap-1">
                <button
                  type="button"
                  onClick={() => notifications.markAllRead()}
                  className="rounded px-1.5 py-0.5 text-xs font-medium text-accent-text hover:bg-subtle"
                >
                  {t('notify.markAllRead')}
                </button>
                <button
                  type="button"
                  onClick={() => notifications.clear()}
                  className="rounded px-1.5 py-0.5 text-xs font-medium text-muted hover:bg-subtle"
                >
                  {t('notify.clear')}
                </button>
              </div>
            ) : null}
          </div>
          {items.length === 0 ? (
            <p className="px-3 py-6 text-center text-sm text-muted">{t('shell.noNotifications')}</p>
          ) : (
            <ul
              className="mt-1 flex max-h-96 flex-col gap-0.5 overflow-y-auto"
              data-testid="notification-list"
            >
              {items.map((n) => (
                <NotificationItem key={n.id} n={n} onOpen={close} />
              ))}
            </ul>
          )}
        </div>
      )}
    </Popover>
  );
}

export function TopBar({ onOpenMenu }: { onOpenMenu: () => void }) {
  const { t } = useI18n();
  const { user, home } = useSession();
  const username = user?.username ?? '';
  // The shell shows before the user info arrives (a stored token is enough): no made-up $0.00 meanwhile.
  const balance = user ? formatMoney(user.balance, { decimals: 4 }) : '…';
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
      <Logo compact to={home} />
      <DemoBadge />
      <div className="ml-auto flex items-center gap-0.5 sm:gap-1">
        <NotificationBell />
        {/* Below 640 px these two live in the drawer's header. */}
        <div className="hidden items-center gap-1 sm:flex">
          <LanguageSwitch />
          <ThemeToggle />
        </div>
        <Link
          to="/balance"
          aria-label={t('shell.balanceHistory', { amount: balance })}
          className="mx-1 inline-flex rounded-full border border-line bg-subtle px-2.5 py-1 text-[13px] font-semibold whitespace-nowrap text-fg tabular hover:border-accent"
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

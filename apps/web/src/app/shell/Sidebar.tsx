import { LogOut, PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { NavLink, useLocation } from 'react-router';
import { BADGE_POLL_MS, useUnreadCount } from '../../api/chat.ts';
import { useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { badgeText } from '../../lib/format.ts';
import { useSession } from '../../session/session.tsx';
import { ADMIN_NAV_ITEMS, NAV_ITEMS, type NavItem } from './nav.ts';

/**
 * The chat's unread count (docs/product.md#screens-and-routes): conversations with unread replies, as a
 * mail inbox counts threads, from the server (the lists are bounded and filtered), polled slowly and
 * refreshed on every live `conversation` event (live/live.tsx refreshes the chat's queries).
 */
function useChatUnread(enabled: boolean): number {
  const count = useUnreadCount(BADGE_POLL_MS, enabled);
  return enabled ? (count.data?.conversations ?? 0) : 0;
}

interface SidebarNavProps {
  /** Icons only (desktop collapsed). */
  collapsed?: boolean;
  onNavigate?: () => void;
}

function Item({ item, collapsed, onNavigate }: { item: NavItem } & SidebarNavProps) {
  const { t } = useI18n();
  const Icon = item.icon;
  const label = t(item.label);
  const count = useChatUnread(item.badge === 'chatUnread');
  const { pathname } = useLocation();
  const within = item.also?.some((p) => pathname.toLowerCase().startsWith(p)) ?? false;
  const name = item.soon
    ? t('nav.soonLabel', { label })
    : count > 0
      ? t('chat.navUnread', { label, count })
      : label;
  return (
    <li>
      <NavLink
        to={item.to}
        onClick={onNavigate}
        title={collapsed ? name : undefined}
        aria-label={item.soon || count > 0 ? name : undefined}
        className={({ isActive }) =>
          cx(
            'flex items-center gap-3 rounded-md px-2.5 py-2 text-sm font-medium transition-colors',
            collapsed && 'justify-center px-0',
            isActive || within
              ? 'bg-accent-soft text-accent-text'
              : 'text-muted hover:bg-subtle hover:text-fg',
          )
        }
      >
        <span className="relative shrink-0">
          <Icon className={cx('size-[18px]', item.soon && 'opacity-70')} aria-hidden />
          {count > 0 && collapsed ? (
            <span
              className="absolute -top-1.5 -right-1.5 size-2.5 rounded-full bg-bad ring-2 ring-surface"
              aria-hidden
            />
          ) : null}
        </span>
        <span className={collapsed ? 'sr-only' : 'min-w-0 flex-1 leading-snug break-words'}>{label}</span>
        {count > 0 && !collapsed ? (
          <span
            data-testid="chat-unread-total"
            className="shrink-0 rounded-full bg-bad px-1.5 py-px text-[11px] font-semibold text-white tabular dark:text-page"
            aria-hidden
          >
            {badgeText(count)}
          </span>
        ) : null}
        {item.soon && !collapsed ? (
          <span
            className="shrink-0 rounded-full border border-line px-1.5 py-px text-[10px] font-semibold tracking-wide text-muted uppercase"
            aria-hidden
          >
            {t('nav.soon')}
          </span>
        ) : null}
      </NavLink>
    </li>
  );
}

/** The menu: everyone's items, the admin items for Admin9, and Logout. */
export function SidebarNav({ collapsed, onNavigate }: SidebarNavProps) {
  const { t } = useI18n();
  const session = useSession();
  return (
    <nav aria-label={t('nav.main')} className="flex min-h-0 flex-1 flex-col">
      <div className="flex-1 overflow-y-auto px-2.5 py-3">
        <ul className="flex flex-col gap-0.5">
          {NAV_ITEMS.map((item) => (
            <Item key={item.to} item={item} collapsed={collapsed} onNavigate={onNavigate} />
          ))}
        </ul>
        {session.isAdmin ? (
          <>
            <p
              className={cx(
                'mt-5 mb-1.5 px-2.5 text-[11px] font-semibold uppercase tracking-wider text-muted',
                collapsed && 'sr-only',
              )}
              id="admin-nav-heading"
            >
              {t('nav.admin')}
            </p>
            {collapsed ? <hr className="mx-2 my-3 border-line" aria-hidden /> : null}
            <ul className="flex flex-col gap-0.5" aria-labelledby="admin-nav-heading">
              {ADMIN_NAV_ITEMS.map((item) => (
                <Item key={item.to} item={item} collapsed={collapsed} onNavigate={onNavigate} />
              ))}
            </ul>
          </>
        ) : null}
      </div>
      <div className="border-t border-line px-2.5 py-3">
        <button
          type="button"
          onClick={() => {
            onNavigate?.();
            session.logout();
          }}
          title={collapsed ? t('nav.logout') : undefined}
          className={cx(
            'flex w-full items-center gap-3 rounded-md px-2.5 py-2 text-sm font-medium text-muted hover:bg-bad-soft hover:text-bad',
            collapsed && 'justify-center px-0',
          )}
        >
          <LogOut className="size-[18px] shrink-0" aria-hidden />
          <span className={collapsed ? 'sr-only' : undefined}>{t('nav.logout')}</span>
        </button>
      </div>
    </nav>
  );
}

/** Desktop sidebar (768 px and wider) with its collapse toggle. */
export function Sidebar({ collapsed, onToggle }: { collapsed: boolean; onToggle: () => void }) {
  const { t } = useI18n();
  return (
    <aside
      className={cx(
        'sticky top-14 hidden h-[calc(100dvh-3.5rem)] shrink-0 flex-col border-r border-line bg-surface transition-[width] duration-200 md:flex',
        collapsed ? 'w-16' : 'w-60',
      )}
    >
      <SidebarNav collapsed={collapsed} />
      <div className="border-t border-line px-2.5 py-2">
        <button
          type="button"
          onClick={onToggle}
          aria-label={collapsed ? t('nav.expand') : t('nav.collapse')}
          aria-expanded={!collapsed}
          className={cx(
            'flex w-full items-center gap-3 rounded-md px-2.5 py-2 text-sm text-muted hover:bg-subtle hover:text-fg',
            collapsed && 'justify-center px-0',
          )}
        >
          {collapsed ? (
            <PanelLeftOpen className="size-[18px]" aria-hidden />
          ) : (
            <PanelLeftClose className="size-[18px]" aria-hidden />
          )}
          {collapsed ? null : <span>{t('nav.collapse')}</span>}
        </button>
      </div>
    </aside>
  );
}

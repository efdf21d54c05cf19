import { WifiOff, X } from 'lucide-react';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigation } from 'react-router';
import { LanguageSwitch, Logo, SkipLink, ThemeToggle } from '../../components/controls.tsx';
import { ReauthDialog } from '../../components/ReauthDialog.tsx';
import { Toaster } from '../../components/toast.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { useOnline } from '../../lib/online.ts';
import { LiveOrdersProvider, useLiveStatus } from '../../live/live.tsx';
import { useSession } from '../../session/session.tsx';
import { Sidebar, SidebarNav } from './Sidebar.tsx';
import { TopBar } from './TopBar.tsx';

const COLLAPSE_KEY = 'simdock.sidebar';

function storedCollapsed(): boolean {
  try {
    return localStorage.getItem(COLLAPSE_KEY) === 'collapsed';
  } catch {
    return false;
  }
}

const FOCUSABLE = 'a[href], button:not([disabled]), select:not([disabled]), input:not([disabled])';

/**
 * The drawer that replaces the sidebar below 768 px: a modal dialog (focus moves in, Tab cycles
 * inside, Esc, the close button and the backdrop close it, focus returns to the menu button).
 */
function MobileDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useI18n();
  const { home } = useSession();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.querySelector<HTMLElement>('button, a')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
      if (e.key !== 'Tab' || !panel.current) return;
      // Keep the focus inside the drawer (it is modal): Tab from the last control goes to the first.
      const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => el.offsetParent !== null,
      );
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      const active = document.activeElement;
      if (!panel.current.contains(active)) {
        e.preventDefault();
        first.focus();
      } else if (e.shiftKey && active === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && active === last) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [open, onClose]);
  if (!open) return null;
  return (
    <div className="fixed inset-0 z-40 md:hidden">
      <div className="absolute inset-0 bg-black/40" aria-hidden onClick={onClose} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-label={t('nav.main')}
        className="absolute inset-y-0 left-0 flex w-72 max-w-[85vw] flex-col bg-surface shadow-xl"
      >
        <div className="flex h-14 items-center justify-between gap-1 border-b border-line px-3">
          <Logo to={home} />
          <div className="ml-auto flex items-center gap-1 sm:hidden">
            <LanguageSwitch />
            <ThemeToggle />
          </div>
          <button
            type="button"
            onClick={onClose}
            aria-label={t('nav.closeMenu')}
            className="inline-flex size-9 items-center justify-center rounded-md text-muted hover:bg-subtle hover:text-fg"
          >
            <X className="size-5" aria-hidden />
          </button>
        </div>
        <SidebarNav onNavigate={onClose} />
      </div>
    </div>
  );
}

/**
 * Shown above the page while the browser is offline, or while the server cannot be reached (the live
 * stream is down): what the page shows may be old, and it refreshes by itself once the connection is
 * back (live/live.tsx). The Dashboard says it in its own words, beside its "Live updates off" mark.
 */
function OfflineBanner() {
  const { t } = useI18n();
  const online = useOnline();
  const live = useLiveStatus();
  const { pathname } = useLocation();
  const serverDown = live === 'down' && !/^\/dashboard\/?$/i.test(pathname);
  if (online && !serverDown) return null;
  return (
    <div
      role="status"
      data-testid="connection-banner"
      className="mb-4 flex items-center gap-2 rounded-md border border-warn/30 bg-warn-soft px-3 py-2 text-[13px] font-medium text-fg"
    >
      <WifiOff className="size-4 text-warn" aria-hidden />
      {online ? t('state.serverDownBanner') : t('state.offlineBanner')}
    </div>
  );
}

/**
 * The signed-in layout: fixed top bar, collapsible sidebar (persisted), mobile drawer, and the page
 * in <main>; live order updates, toasts and the offline banner for every screen. A thin bar shows
 * while a lazily loaded page is on its way. Without `children` it renders the route's <Outlet/>.
 */
export function AppShell({ children }: { children?: ReactNode }) {
  const { user } = useSession();
  const [collapsed, setCollapsed] = useState(storedCollapsed);
  const [drawer, setDrawer] = useState(false);
  const navigation = useNavigation();
  const location = useLocation();
  const closeDrawer = useCallback(() => setDrawer(false), []);

  // Close the drawer whenever the page changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only
  useEffect(() => setDrawer(false), [location.pathname]);

  const toggle = () => {
    setCollapsed((c) => {
      try {
        localStorage.setItem(COLLAPSE_KEY, c ? 'expanded' : 'collapsed');
      } catch {
        // Not persisted.
      }
      return !c;
    });
  };

  return (
    <LiveOrdersProvider username={user?.username ?? ''}>
      <div className="min-h-dvh">
        <SkipLink />
        {navigation.state === 'loading' ? (
          <div className="fixed inset-x-0 top-0 z-50 h-0.5 animate-pulse bg-accent" aria-hidden />
        ) : null}
        <TopBar onOpenMenu={() => setDrawer(true)} />
        <Toaster />
        <ReauthDialog />
        <MobileDrawer open={drawer} onClose={closeDrawer} />
        <div className="flex pt-14">
          <Sidebar collapsed={collapsed} onToggle={toggle} />
          <main
            id="main"
            tabIndex={-1}
            className="min-w-0 flex-1 px-4 py-5 focus:outline-none md:px-7 md:py-7"
          >
            <div className="mx-auto max-w-7xl">
              <OfflineBanner />
              {children ?? <Outlet />}
            </div>
          </main>
        </div>
      </div>
    </LiveOrdersProvider>
  );
}

import {
  Boxes,
  ClipboardList,
  CreditCard,
  Gauge,
  History,
  KeyRound,
  LayoutDashboard,
  type LucideIcon,
  MessagesSquare,
  Router,
  ScrollText,
  Send,
  Settings,
  UserRound,
  Users,
  Wallet,
} from 'lucide-react';
import type { MessageKey } from '../../i18n/index.tsx';

export interface NavItem {
  to: string;
  label: MessageKey;
  icon: LucideIcon;
  /** Not built yet: marked "Soon" until its issue lands (then remove the flag). */
  soon?: boolean;
  /** Other screens reached from this one that light it too (path prefixes, lower case): Device Details. */
  also?: string[];
  /** A live count shown on the item: 'chatUnread' = the chat's conversations with unread replies. */
  badge?: 'chatUnread';
}

/**
 * Sidebar items for everyone (docs/product.md#screens-and-routes, in its order), then Top up and API Key,
 * which every signed-in user may open and should not have to find through the balance or a page.
 */
export const NAV_ITEMS: NavItem[] = [
  { to: '/userinfo', label: 'nav.userInfo', icon: UserRound },
  { to: '/dashboard', label: 'nav.dashboard', icon: LayoutDashboard },
  { to: '/SMS_SendingPage', label: 'nav.smsSending', icon: Send },
  { to: '/ChatPage', label: 'nav.chat', icon: MessagesSquare, badge: 'chatUnread' },
  { to: '/History', label: 'nav.history', icon: History },
  { to: '/topup', label: 'nav.topup', icon: Wallet },
  { to: '/apikey', label: 'nav.apiKey', icon: KeyRound },
];

/** Items Admin9 adds (the overview is the admin's home). */
export const ADMIN_NAV_ITEMS: NavItem[] = [
  { to: '/admin', label: 'nav.overview', icon: Gauge },
  { to: '/usermanager', label: 'nav.userManager', icon: Users },
  { to: '/servicemanager', label: 'nav.serviceManager', icon: Boxes },
  { to: '/gatewaymanager', label: 'nav.gatewayManager', icon: Router, also: ['/details/'] },
  { to: '/ordermanager', label: 'nav.orderManager', icon: ClipboardList },
  { to: '/paymentmanager', label: 'nav.paymentManager', icon: CreditCard },
  { to: '/settings', label: 'nav.settings', icon: Settings },
  { to: '/audit', label: 'nav.audit', icon: ScrollText },
];

/**
 * Texts of the shared UI kit (state views, notifications, row actions, statuses, the shell's "Soon"
 * marks), the admin overview, onboarding and the landing page's price list. en.ts / vi.ts spread these in.
 */
export const appEn = {
  // Failure, empty and offline states (components/StateViews.tsx, lib/errors.ts).
  'errors.network': 'No connection to the server. Check your connection and try again.',
  'errors.offline': 'You are offline. The page updates again when the connection is back.',
  'errors.server': 'The server had a problem answering. Try again in a moment.',
  'errors.timeout': 'The server took too long to answer. Try again in a moment.',
  'errors.forbidden': 'Your account is not allowed to see this.',
  'errors.notFound': 'Not found.',
  'errors.retrying': 'Trying again…',
  'state.offlineBanner': 'You are offline. What you see may be out of date.',
  'state.backOnline': 'Back online.',
  'state.scrollHint': 'Scroll sideways to see more',
  'state.moreActions': 'More actions',
  'state.actionsFor': 'Actions for {name}',

  // Order statuses (one friendly name per status, in badges and filters).
  'status.order.WAIT_CODE': 'Waiting for code',
  'status.order.SUCCESS': 'Code received',
  'status.order.CANCEL': 'Cancelled',
  'status.unknown': 'Unknown ({status})',

  // Notifications (bell, toasts, tab title).
  'notify.unread': '{count} unread',
  'notify.markAllRead': 'Mark All as Read',
  'notify.clear': 'Clear',
  'notify.codeTitle': 'Code {code} for {service}',
  'notify.codeBody': 'Number {phone}',
  'notify.copyCode': 'Copy Code',
  'notify.tabTitle': '({count}) New code {code}',
  'notify.liveOn': 'Live: codes appear the moment they arrive.',
  'notify.liveConnecting': 'Connecting to live updates…',
  'notify.liveDown': 'Live updates are paused: no connection to the server. Checking every 5 s instead.',
  'notify.liveOff': 'Live updates off',
  'notify.liveConnectingShort': 'Connecting…',

  // Sidebar.
  'nav.soon': 'Soon',
  'nav.soonLabel': '{label} (coming soon)',
  'nav.overview': 'Overview',

  // Onboarding.
  'onboarding.title': 'Top up to rent your first number',
  'onboarding.text':
    'Your balance is $0.00. Add funds with a USDT invoice, then pick a service below: the code shows here seconds after the SMS arrives.',
  'onboarding.action': 'Top Up',
  'onboarding.prices': 'See Prices',

  // Admin overview (/admin).
  'overview.title': 'Overview',
  'overview.subtitle': 'The platform at a glance: accounts, money held, devices and today’s rentals.',
  'overview.users': 'Users',
  'overview.usersHint': 'Registered accounts',
  'overview.balance': 'Balance held',
  'overview.balanceHint': 'Sum of all user balances',
  'overview.gateways': 'Gateways online',
  'overview.gatewaysHint': '{online} of {total} reporting in the last 3 min',
  'overview.sims': 'SIMs',
  'overview.simsHint': '{usable} of {total} usable',
  'overview.orders': 'Orders today',
  'overview.ordersHint': '{success} with a code · {waiting} waiting now',
  'overview.unmatched': 'Unmatched SMS',
  'overview.unmatchedHint': 'Last 24 h, matched no rental',
  'overview.loadFailed': 'The overview could not be loaded',
  'overview.shortcuts': 'Shortcuts',
  'overview.openOrders': 'Open Order Manager',
  'overview.openGateways': 'Open Gateway Manager',
  'overview.openServices': 'Open Service Manager',
  'overview.openDashboard': 'Rent a Number',

  // Landing page: the live price list.
  'landing.priceListTitle': 'Current prices',
  'landing.priceListText': 'Live from the service list. You pay only when you rent.',
  'landing.priceListEmpty': 'No services are offered right now.',
  'landing.priceListFailed': 'The price list could not be loaded',
  'landing.colService': 'Service',
  'landing.colPrice': 'Price',
  'landing.colAvailable': 'Available',
} as const;

/**
 * Texts of the shared UI kit that signed-out pages use too (failure and offline states, row actions,
 * scroll hint). en.ts / vi.ts spread these in. The signed-in kit (statuses, notifications, the shell's
 * "Soon" marks), the admin overview and onboarding are in signed-in.ts; the landing page's price list
 * in public.ts.
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
  // A page whose code could not load (app/PageUnavailable.tsx): in the first bundle, for an outage.
  'state.noConnection': 'No connection',
  'state.pageWaiting':
    'This page could not load: no connection to the server. It loads by itself when the connection is back.',
  'state.scrollHint': 'Scroll sideways to see more',
  'state.moreActions': 'More actions',
  'state.actionsFor': 'Actions for {name}',
} as const;

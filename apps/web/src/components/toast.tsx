import { type ReactNode, useEffect } from 'react';
import { useLocation } from 'react-router';
import { Toaster as Sonner, toast } from 'sonner';
// The toasts' styles as a stylesheet: sonner's own runtime <style> tag is refused by our CSP
// (style-src 'self'), which left toasts unstyled.
import 'sonner/dist/styles.css';
import { translate } from '../i18n/index.tsx';
import { formatPhone } from '../lib/format.ts';
import { useTheme } from '../lib/theme.tsx';
import { copyText } from './CopyButton.tsx';

/**
 * A toast's advice belongs to the attempt that caused it: one whose action leads to a page is
 * closed once the user is on that page, however they got there (its action, the menu, a link).
 * Toast id → the page's path.
 */
const leadsTo = new Map<string, string>();

/** The one "top up first" toast: a second refusal replaces it rather than stacking. */
const TOP_UP_TOAST = 'top-up-needed';
const TOP_UP_PATH = '/topup';

/**
 * Toasts (sonner): the results of actions and live events, shown where the user is looking,
 * announced to screen readers (aria-live), dismissable, paused on hover. Mounted once in the shell.
 *   notify.success(t('gateways.scanDone', …)); notify.error(t('gateways.scanFailed'), failureText(err, t));
 */
export const notify = {
  success: (title: ReactNode, description?: ReactNode) => toast.success(title, { description }),
  error: (title: ReactNode, description?: ReactNode) => toast.error(title, { description, duration: 8000 }),
  info: (title: ReactNode, description?: ReactNode) => toast.info(title, { description }),
  /** An error whose next step is a top-up (402 balance too low). */
  topUp: (title: ReactNode, label: string, onTopUp: () => void) => {
    leadsTo.set(TOP_UP_TOAST, TOP_UP_PATH);
    const forget = () => leadsTo.delete(TOP_UP_TOAST);
    return toast.error(title, {
      id: TOP_UP_TOAST,
      duration: 10_000,
      action: { label, onClick: onTopUp },
      onDismiss: forget,
      onAutoClose: forget,
    });
  },
  /** A code arrived: the code big, the number under it, a Copy button that keeps the toast open. */
  code: ({ code, phone, service, id }: { code: string; phone: string; service: string; id: string }) =>
    toast.success(translate('notify.codeTitle', { code, service }), {
      id,
      description: translate('notify.codeBody', { phone: formatPhone(phone) }),
      duration: 20_000,
      action: {
        label: translate('notify.copyCode'),
        onClick: (e) => {
          e.preventDefault();
          void copyText(code);
        },
      },
      classNames: { title: 'text-[15px]' },
    }),
};

/** Closes the toasts whose action leads to the page just opened. */
function useDismissOnArrival() {
  const { pathname } = useLocation();
  useEffect(() => {
    for (const [id, path] of leadsTo) {
      if (pathname === path) {
        leadsTo.delete(id);
        toast.dismiss(id);
      }
    }
  }, [pathname]);
}

export function Toaster() {
  const { theme } = useTheme();
  useDismissOnArrival();
  return (
    <Sonner
      theme={theme}
      position="top-right"
      offset={{ top: 64, right: 16 }}
      mobileOffset={{ top: 64, left: 8, right: 8 }}
      closeButton
      richColors
      toastOptions={{ className: 'font-sans' }}
    />
  );
}

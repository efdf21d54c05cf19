import type { ReactNode } from 'react';
import { Toaster as Sonner, toast } from 'sonner';
// The toasts' styles as a stylesheet: sonner's own runtime <style> tag is refused by our CSP
// (style-src 'self'), which left toasts unstyled.
import 'sonner/dist/styles.css';
import { useTheme } from '../app/theme.tsx';
import { translate } from '../i18n/index.tsx';
import { copyText } from './CopyButton.tsx';

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
  topUp: (title: ReactNode, label: string, onTopUp: () => void) =>
    toast.error(title, { duration: 10_000, action: { label, onClick: onTopUp } }),
  /** A code arrived: the code big, the number under it, a Copy button that keeps the toast open. */
  code: ({ code, phone, service, id }: { code: string; phone: string; service: string; id: string }) =>
    toast.success(translate('notify.codeTitle', { code, service }), {
      id,
      description: translate('notify.codeBody', { phone }),
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

export function Toaster() {
  const { theme } = useTheme();
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

import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { type ReactNode, type RefObject, useRef } from 'react';
import { useI18n } from '../i18n/index.tsx';
import { cx } from '../lib/cx.ts';
import { Button, type ButtonVariant } from './Button.tsx';

export interface ModalProps {
  open: boolean;
  title: ReactNode;
  /** Esc, the close button, Cancel and a click outside call it (not while `busy`). */
  onClose: () => void;
  children?: ReactNode;
  /** Buttons at the bottom (Cancel first, then the primary action). */
  footer?: ReactNode;
  /** While true the dialog cannot be dismissed. */
  busy?: boolean;
  size?: 'sm' | 'md' | 'lg';
  /** The element to focus first; default: an element with data-autofocus, else the first field or button. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Render the body inside a <form> whose submit calls this (Enter submits). */
  onSubmit?: () => void;
}

/** The element to refocus after a dialog opened from `el`: for an item of a menu, the menu's button. */
function openerOf(el: Element | null): HTMLElement | null {
  if (!(el instanceof HTMLElement) || el === document.body) return null;
  const menu = el.closest('[role="menu"]');
  const trigger = menu?.getAttribute('aria-labelledby');
  return (trigger && document.getElementById(trigger)) || el;
}

/**
 * An accessible dialog on Radix Dialog: rendered in a portal, focus trapped inside and restored on
 * close (to the control that opened it), Esc and a click outside close it (not while busy), body scroll locked, full width on phones.
 */
export function Modal({
  open,
  title,
  onClose,
  children,
  footer,
  busy,
  size = 'md',
  initialFocus,
  onSubmit,
}: ModalProps) {
  const { t } = useI18n();
  /** The control that had the focus when the dialog opened: it gets it back on close. */
  const opener = useRef<HTMLElement | null>(null);
  const widths = { sm: 'sm:max-w-sm', md: 'sm:max-w-lg', lg: 'sm:max-w-2xl' };
  const body = (
    <>
      <div className="flex items-start justify-between gap-3 border-b border-line px-5 py-3.5">
        <Dialog.Title className="text-base font-semibold text-fg">{title}</Dialog.Title>
        <button
          type="button"
          onClick={() => !busy && onClose()}
          disabled={busy}
          aria-label={t('common.close')}
          className="-m-1 rounded p-1 text-muted hover:bg-subtle hover:text-fg disabled:opacity-50"
        >
          <X className="size-4" aria-hidden />
        </button>
      </div>
      <div className="max-h-[70vh] overflow-y-auto px-5 py-4">{children}</div>
      {footer ? (
        <div className="flex flex-wrap justify-end gap-2 border-t border-line bg-subtle/50 px-5 py-3">
          {footer}
        </div>
      ) : null}
    </>
  );

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next && !busy) onClose();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content
          aria-describedby={undefined}
          onOpenAutoFocus={(e) => {
            opener.current = openerOf(document.activeElement);
            const panel = e.currentTarget as HTMLElement;
            const first =
              initialFocus?.current ??
              panel.querySelector<HTMLElement>('[data-autofocus]') ??
              panel.querySelector<HTMLElement>('input, select, textarea');
            if (first) {
              e.preventDefault();
              first.focus();
            }
          }}
          onCloseAutoFocus={(e) => {
            // Radix returns the focus to a Dialog.Trigger; these dialogs are opened by plain buttons
            // (or menu items), so return it to the control that opened the dialog.
            e.preventDefault();
            const back = opener.current?.isConnected ? opener.current : document.getElementById('main');
            opener.current = null;
            back?.focus();
          }}
          onEscapeKeyDown={(e) => {
            if (busy) e.preventDefault();
          }}
          onPointerDownOutside={(e) => {
            if (busy) e.preventDefault();
          }}
          className={cx(
            'fixed inset-x-0 bottom-0 z-50 w-full rounded-t-xl border border-line bg-surface shadow-xl focus:outline-none',
            'sm:inset-x-auto sm:top-1/2 sm:bottom-auto sm:left-1/2 sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-xl',
            'sm:w-[calc(100%-2rem)]',
            widths[size],
          )}
        >
          {onSubmit ? (
            <form
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                onSubmit();
              }}
            >
              {body}
            </form>
          ) : (
            body
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  /** The question, e.g. t('gateways.deleteConfirm'). */
  message?: ReactNode;
  confirmLabel: ReactNode;
  /** The busy label of the confirm button, e.g. 'Proccessing...'. Default 'Processing…'. */
  busyLabel?: ReactNode;
  cancelLabel?: ReactNode;
  busy?: boolean;
  tone?: Extract<ButtonVariant, 'primary' | 'danger'>;
  onConfirm: () => void;
  onCancel: () => void;
  /** An error to show inside the dialog (e.g. the server's message after a failed delete). */
  error?: ReactNode;
}

/** A yes/no question before a destructive action. Cancel and Esc close it; both are disabled while busy. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  busyLabel,
  cancelLabel,
  busy,
  tone = 'danger',
  onConfirm,
  onCancel,
  error,
}: ConfirmDialogProps) {
  const { t } = useI18n();
  return (
    <Modal
      open={open}
      title={title}
      onClose={onCancel}
      busy={busy}
      size="sm"
      footer={
        <>
          <Button onClick={onCancel} disabled={busy} data-autofocus>
            {cancelLabel ?? t('common.cancel')}
          </Button>
          <Button
            variant={tone}
            onClick={onConfirm}
            busy={busy}
            busyLabel={busyLabel ?? t('common.processing')}
          >
            {confirmLabel}
          </Button>
        </>
      }
    >
      {message ? <p className="text-fg">{message}</p> : null}
      {error ? (
        <p className="mt-3 text-sm font-medium text-bad" role="alert">
          {error}
        </p>
      ) : null}
    </Modal>
  );
}

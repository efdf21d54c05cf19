import { X } from 'lucide-react';
import { type ReactNode, type RefObject, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useI18n } from '../i18n/index.tsx';
import { cx } from '../lib/cx.ts';
import { Button, type ButtonVariant } from './Button.tsx';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

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
  /** The element to focus first; default: the first field or button in the body. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Render the body inside a <form> whose submit calls this (Enter submits). */
  onSubmit?: () => void;
}

/**
 * An accessible dialog: rendered in a portal, focus trapped inside and restored on close, Esc closes,
 * body scroll locked, full width on small screens.
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
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const busyRef = useRef(busy);
  busyRef.current = busy;

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    const first =
      initialFocus?.current ??
      panel.current?.querySelector<HTMLElement>('[data-autofocus]') ??
      panel.current?.querySelector<HTMLElement>('input, select, textarea') ??
      panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel.current)?.focus();

    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        if (!busyRef.current) closeRef.current();
        return;
      }
      if (e.key !== 'Tab' || !panel.current) return;
      const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
        (el) => el.offsetParent !== null || el === document.activeElement,
      );
      if (items.length === 0) {
        e.preventDefault();
        return;
      }
      const firstEl = items[0]!;
      const lastEl = items[items.length - 1]!;
      if (
        e.shiftKey &&
        (document.activeElement === firstEl || !panel.current.contains(document.activeElement))
      ) {
        e.preventDefault();
        lastEl.focus();
      } else if (
        !e.shiftKey &&
        (document.activeElement === lastEl || !panel.current.contains(document.activeElement))
      ) {
        e.preventDefault();
        firstEl.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.body.style.overflow = overflow;
      previous?.focus?.();
    };
  }, [open, initialFocus]);

  if (!open) return null;

  const widths = { sm: 'sm:max-w-sm', md: 'sm:max-w-lg', lg: 'sm:max-w-2xl' };
  const body = (
    <>
      <div className="flex items-start justify-between gap-3 border-b border-line px-5 py-3.5">
        <h2 id={titleId} className="text-base font-semibold text-fg">
          {title}
        </h2>
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

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-end justify-center p-0 sm:items-center sm:p-4">
      <div className="absolute inset-0 bg-black/40" aria-hidden onClick={() => !busy && onClose()} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={cx(
          'relative w-full rounded-t-xl border border-line bg-surface shadow-xl focus:outline-none sm:rounded-xl',
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
      </div>
    </div>,
    document.body,
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

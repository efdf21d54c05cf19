import type { ReactNode, RefObject } from 'react';
import { useI18n } from '../i18n/index.tsx';
import { Button } from './Button.tsx';
import { Modal } from './Modal.tsx';
import { Notice } from './Notice.tsx';

export interface FormDialogProps {
  /** Default true: render the dialog only while it is open, so its form starts afresh each time. */
  open?: boolean;
  title: ReactNode;
  /** Esc, the close button, Cancel and a click outside call it (not while `pending`). */
  onClose: () => void;
  /**
   * Enter in a field and the submit button call it: react-hook-form's `handleSubmit(...)`, which
   * validates first (the first invalid field gets the focus).
   */
  onSubmit: () => unknown;
  submitLabel: ReactNode;
  /** The submit button's text while `pending` (default 'Saving…'). */
  pendingLabel?: ReactNode;
  /** The save is under way: the submit button spins, Cancel is disabled, the dialog cannot be dismissed. */
  pending?: boolean;
  /** Keeps the submit button disabled (e.g. until the form holds). */
  submitDisabled?: boolean;
  submitVariant?: 'primary' | 'danger';
  /** A line under the title that says what the form does. */
  intro?: ReactNode;
  /** The failure to show above the buttons (e.g. `errorMessage(mutation.error)`), with an optional bold title. */
  error?: ReactNode;
  errorTitle?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** The element to focus first; default: an element with data-autofocus, else the first field. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** The fields. */
  children: ReactNode;
}

/**
 * The one shell of a dialog that edits something (Modal underneath: focus moves to the first field and
 * back to the opener on close, Esc and a click outside close it): title, an optional intro line, the
 * fields, the error line, and the Cancel + submit footer with the pending state. Enter in a field submits.
 *   <FormDialog title={t('users.addTitle')} onClose={onClose} onSubmit={submit}
 *     submitLabel={t('users.create')} pending={save.isPending} error={banner}>
 *     <FormField …/>
 *   </FormDialog>
 */
export function FormDialog({
  open = true,
  title,
  onClose,
  onSubmit,
  submitLabel,
  pendingLabel,
  pending = false,
  submitDisabled,
  submitVariant = 'primary',
  intro,
  error,
  errorTitle,
  size,
  initialFocus,
  children,
}: FormDialogProps) {
  const { t } = useI18n();
  return (
    <Modal
      open={open}
      title={title}
      onClose={onClose}
      busy={pending}
      size={size}
      initialFocus={initialFocus}
      onSubmit={() => {
        if (!pending) void onSubmit();
      }}
      footer={
        <>
          <Button onClick={onClose} disabled={pending}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant={submitVariant}
            disabled={submitDisabled}
            busy={pending}
            busyLabel={pendingLabel ?? t('common.saving')}
          >
            {submitLabel}
          </Button>
        </>
      }
    >
      {intro ? <p className="mb-3 text-[13px] text-muted">{intro}</p> : null}
      {children}
      {error ? (
        <Notice tone="error" title={errorTitle} className="mt-4">
          {error}
        </Notice>
      ) : null}
    </Modal>
  );
}

import { PASSWORD_MAX } from '@simdock/contract';
import { ChevronDown } from 'lucide-react';
import type { InputHTMLAttributes, Ref, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { cx } from '../lib/cx.ts';

const FIELD =
  'w-full rounded-md border border-line-strong bg-surface text-fg placeholder:text-muted/70 shadow-xs ' +
  'focus:outline-none focus:ring-2 focus:ring-accent/40 focus:border-accent ' +
  'aria-[invalid=true]:border-bad aria-[invalid=true]:focus:ring-bad/30 disabled:opacity-60 disabled:bg-subtle';

/** Text-like input with the shared look; wrap it in <FormField> for its label and error. */
export function Input({
  className,
  ...rest
}: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return <input className={cx(FIELD, 'h-9 px-3', className)} {...rest} />;
}

/**
 * A password input: the contract's length limit, and `autoComplete` saying which password it is
 * (`current-password` to sign in, `new-password` to set one) so password managers fill the right one.
 */
export function PasswordInput({
  autoComplete,
  ...rest
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'maxLength'> & {
  autoComplete: 'current-password' | 'new-password';
  ref?: Ref<HTMLInputElement>;
}) {
  return <Input type="password" autoComplete={autoComplete} maxLength={PASSWORD_MAX} {...rest} />;
}

/**
 * The one select: the native control (the phone's own picker, full keyboard and screen-reader
 * support) drawn like the other fields, with the same chevron in both themes.
 */
export function Select({
  className,
  ...rest
}: SelectHTMLAttributes<HTMLSelectElement> & { ref?: Ref<HTMLSelectElement> }) {
  return (
    <span className={cx('relative block', className)}>
      <select className={cx(FIELD, 'h-9 appearance-none truncate pr-8 pl-2.5')} {...rest} />
      <ChevronDown
        className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted"
        aria-hidden
      />
    </span>
  );
}

export function Textarea({
  className,
  ...rest
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  return <textarea className={cx(FIELD, 'px-3 py-2 min-h-24', className)} {...rest} />;
}

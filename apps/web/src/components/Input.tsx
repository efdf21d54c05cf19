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

export function Select({
  className,
  ...rest
}: SelectHTMLAttributes<HTMLSelectElement> & { ref?: Ref<HTMLSelectElement> }) {
  return <select className={cx(FIELD, 'h-9 px-2.5 pr-8', className)} {...rest} />;
}

export function Textarea({
  className,
  ...rest
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  return <textarea className={cx(FIELD, 'px-3 py-2 min-h-24', className)} {...rest} />;
}

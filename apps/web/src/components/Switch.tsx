import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from 'react';
import { cx } from '../lib/cx.ts';

export interface SwitchProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'role'> {
  /** The visible label (the switch's accessible name). */
  label: ReactNode;
  /** A line under the label. */
  hint?: ReactNode;
  /** Controlled use: called with the new value (alongside the native onChange). */
  onCheckedChange?: (checked: boolean) => void;
  ref?: Ref<HTMLInputElement>;
}

/**
 * The one yes/no control: a native checkbox shown as a switch (role="switch", Space
 * toggles), its label and hint beside it; the whole row is clickable. Works with react-hook-form
 * (`<Switch label=… {...register('isEnable')} />`) or controlled (`checked` + `onCheckedChange`).
 */
export function Switch({ label, hint, className, onCheckedChange, onChange, ...input }: SwitchProps) {
  const id = useId();
  return (
    <label
      htmlFor={id}
      className={cx(
        'flex cursor-pointer items-start justify-between gap-4 rounded-md border border-line px-3 py-2.5 hover:bg-subtle/50',
        className,
      )}
    >
      <span className="min-w-0">
        <span id={`${id}-label`} className="block text-[13px] font-medium text-fg">
          {label}
        </span>
        {hint ? (
          <span id={`${id}-hint`} className="block text-xs text-muted">
            {hint}
          </span>
        ) : null}
      </span>
      <span className="relative mt-0.5 inline-flex shrink-0">
        <input
          id={id}
          type="checkbox"
          role="switch"
          aria-checked={input.checked}
          aria-labelledby={`${id}-label`}
          className="peer absolute inset-0 z-10 m-0 size-full cursor-pointer opacity-0 disabled:cursor-not-allowed"
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(e) => {
            onChange?.(e);
            onCheckedChange?.(e.target.checked);
          }}
          {...input}
        />
        <span
          aria-hidden
          className={cx(
            'relative inline-flex h-5 w-9 items-center rounded-full bg-line-strong transition-colors peer-checked:bg-accent',
            'peer-focus-visible:ring-2 peer-focus-visible:ring-accent/50 peer-focus-visible:ring-offset-2 peer-focus-visible:ring-offset-surface',
            'peer-disabled:opacity-55 [&>span]:translate-x-0 peer-checked:[&>span]:translate-x-4',
          )}
        >
          <span className="absolute left-0.5 size-4 rounded-full bg-white shadow-sm transition-transform" />
        </span>
      </span>
    </label>
  );
}

import { LoaderCircle } from 'lucide-react';
import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { cx } from '../lib/cx.ts';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';
export type ButtonSize = 'sm' | 'md';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-accent text-accent-fg hover:bg-accent-hover border border-transparent shadow-sm',
  secondary: 'bg-surface text-fg border border-line-strong hover:bg-subtle shadow-sm',
  danger: 'bg-bad text-white border border-transparent hover:opacity-90 shadow-sm dark:text-page',
  ghost: 'bg-transparent text-fg border border-transparent hover:bg-subtle',
};
const SIZES: Record<ButtonSize, string> = {
  sm: 'h-8 px-2.5 text-[13px] gap-1.5',
  md: 'h-9 px-3.5 text-sm gap-2',
};

/** Classes of a button, for links that should look like one: <Link className={buttonClass('primary')}>. */
export function buttonClass(
  variant: ButtonVariant = 'secondary',
  size: ButtonSize = 'md',
  extra?: string,
): string {
  return cx(
    'inline-flex items-center justify-center rounded-md font-medium whitespace-nowrap transition-colors',
    'disabled:opacity-55 disabled:cursor-not-allowed',
    VARIANTS[variant],
    SIZES[size],
    extra,
  );
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Work in progress: the button is disabled, shows a spinner and `busyLabel` (the spec's busy text). */
  busy?: boolean;
  busyLabel?: ReactNode;
  /** An icon before the label (lucide, size 16). Icon-only buttons must pass `aria-label`. */
  icon?: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

/** The one button. `type` defaults to "button"; pass type="submit" in forms. */
export function Button({
  variant = 'secondary',
  size = 'md',
  busy = false,
  busyLabel,
  icon,
  className,
  children,
  disabled,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClass(variant, size, className)}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy ? <LoaderCircle className="size-4 animate-spin" aria-hidden /> : icon}
      {busy && busyLabel !== undefined ? busyLabel : children}
    </button>
  );
}

import { cloneElement, isValidElement, type ReactElement, type ReactNode, useId } from 'react';
import { cx } from '../lib/cx.ts';

export interface FormFieldProps {
  label: ReactNode;
  /** The control: one element (Input, Select, Textarea…). It receives id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>;
  /** The error text under the control (already translated: t(`rule.${key}`)). */
  error?: ReactNode;
  hint?: ReactNode;
  /** Defaults to a generated id. */
  id?: string;
  className?: string;
  /** Extra content right of the label (e.g. a "Forgot your password?" link). */
  labelAside?: ReactNode;
}

/**
 * Label + control + hint + error, wired for assistive technology:
 *   <FormField label={t('register.email')} error={errors.email && t(`rule.${errors.email}`)}>
 *     <Input type="email" {...register('email')} />
 *   </FormField>
 */
export function FormField({ label, children, error, hint, id, className, labelAside }: FormFieldProps) {
  const generated = useId();
  const controlId = id ?? (children.props.id as string | undefined) ?? generated;
  const hintId = hint && !error ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, {
        id: controlId,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
      })
    : children;
  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={controlId} className="text-[13px] font-medium text-fg">
          {label}
        </label>
        {labelAside}
      </div>
      {control}
      {hint && !error ? (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-bad">
          {error}
        </p>
      ) : null}
    </div>
  );
}

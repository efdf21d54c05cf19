import { type ReactNode, useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { cx } from '../../lib/cx.ts';

export interface Choice<V extends string> {
  value: V;
  label: ReactNode;
  /** One line under the label. */
  hint?: ReactNode;
  /** A lucide icon, size-4. */
  icon?: ReactNode;
}

export interface ChoiceCardsProps<V extends string> {
  legend: ReactNode;
  choices: Choice<V>[];
  /** `register(name)` of the form's field: every radio shares it, as react-hook-form expects. */
  field: UseFormRegisterReturn;
  /** Translated text under the group when no choice holds. */
  error?: string;
  /** Grid columns from the `sm` breakpoint. */
  columns?: 2 | 3;
}

/**
 * A radio group drawn as cards: label, icon and a line of help per choice, all visible at once so the
 * admin compares them before picking. Native radios: arrow keys move between choices, the group's
 * legend names it; each radio is named by its label alone and described by its help line.
 */
export function ChoiceCards<V extends string>({
  legend,
  choices,
  field,
  error,
  columns = 2,
}: ChoiceCardsProps<V>) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    <fieldset aria-describedby={errorId} className="flex min-w-0 flex-col gap-1.5">
      <legend className="mb-1.5 text-[13px] font-medium text-fg">{legend}</legend>
      <div className={cx('grid gap-2', columns === 3 ? 'sm:grid-cols-3' : 'sm:grid-cols-2')}>
        {choices.map((c) => (
          <label
            key={c.value}
            className={cx(
              'flex cursor-pointer items-start gap-2.5 rounded-md border border-line px-3 py-2.5 hover:bg-subtle/50',
              'has-checked:border-accent has-checked:bg-accent-soft/60',
              'has-focus-visible:ring-2 has-focus-visible:ring-accent/40',
              error && 'border-bad',
            )}
          >
            <input
              type="radio"
              value={c.value}
              aria-labelledby={`${id}-${c.value}`}
              aria-describedby={c.hint ? `${id}-${c.value}-hint` : undefined}
              aria-invalid={error ? true : undefined}
              className="mt-0.5 size-4 shrink-0 accent-accent focus:outline-none"
              {...field}
            />
            <span className="flex min-w-0 flex-col gap-0.5">
              <span
                id={`${id}-${c.value}`}
                className="flex items-center gap-1.5 text-[13px] font-medium text-fg"
              >
                {c.icon ? (
                  <span className="text-muted" aria-hidden>
                    {c.icon}
                  </span>
                ) : null}
                {c.label}
              </span>
              {c.hint ? (
                <span id={`${id}-${c.value}-hint`} className="text-xs text-muted">
                  {c.hint}
                </span>
              ) : null}
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="text-xs font-medium text-bad">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

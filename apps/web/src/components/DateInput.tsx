import { CalendarDays } from 'lucide-react';
import { type InputHTMLAttributes, type Ref, useRef, useState } from 'react';
import { useI18n } from '../i18n/index.tsx';
import { formatDate, parseDateInput } from '../lib/format.ts';
import { Input } from './Input.tsx';

export interface DateInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'onChange' | 'defaultValue'> {
  /** The day, 'YYYY-MM-DD' ('' for none). */
  value: string;
  /** The day typed or picked, 'YYYY-MM-DD'; '' while the text is not a day. */
  onChange: (day: string) => void;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A day field in the app's date format (2026-11-22, vi: 22/11/2026), which a native date field cannot
 * show: it follows the browser's own language, not the app's. Typing reads either form
 * (parseDateInput); the calendar button opens the browser's picker.
 */
export function DateInput({ value, onChange, onBlur, className, disabled, ...rest }: DateInputProps) {
  const { t, lang } = useI18n();
  const shown = (day: string) => (day ? formatDate(`${day}T00:00:00`, lang) : '');
  const [text, setText] = useState(() => shown(value));
  // The value the text stands for: a new one from outside (a preset, Back) replaces the text, while
  // text being typed stays as typed (it stands for '' until it is a day).
  const [standsFor, setStandsFor] = useState(value);
  if (value !== standsFor) {
    setStandsFor(value);
    setText(shown(value));
  }
  const picker = useRef<HTMLInputElement>(null);
  const change = (day: string, typed: string) => {
    setText(typed);
    setStandsFor(day);
    onChange(day);
  };
  return (
    <span className={`relative block ${className ?? ''}`}>
      <Input
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder={lang === 'vi' ? 'DD/MM/YYYY' : 'YYYY-MM-DD'}
        className="pr-9 tabular"
        value={text}
        disabled={disabled}
        onChange={(e) => change(parseDateInput(e.target.value) ?? '', e.target.value)}
        onBlur={(e) => {
          const day = parseDateInput(text);
          if (day) setText(shown(day));
          onBlur?.(e);
        }}
        {...rest}
      />
      <button
        type="button"
        className="absolute top-1/2 right-1 inline-flex size-7 -translate-y-1/2 items-center justify-center rounded text-muted hover:text-fg focus-visible:ring-2 focus-visible:ring-accent/40 focus-visible:outline-none"
        aria-label={t('common.pickDate')}
        disabled={disabled}
        onClick={() => picker.current?.showPicker?.()}
      >
        <CalendarDays className="size-4" aria-hidden />
      </button>
      {/* The browser's calendar, opened by the button; its own text box is never shown. */}
      <input
        ref={picker}
        type="date"
        tabIndex={-1}
        aria-hidden
        className="pointer-events-none absolute right-0 bottom-0 size-px opacity-0"
        value={value}
        onChange={(e) => change(e.target.value, shown(e.target.value))}
      />
    </span>
  );
}

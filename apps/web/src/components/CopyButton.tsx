import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../i18n/index.tsx';
import { cx } from '../lib/cx.ts';

/** Copies text; works on plain-http hosts too, where navigator.clipboard is missing. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Fall through to the legacy path.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

export interface CopyButtonProps {
  value: string;
  /** Visible text; omitted = icon only (the aria-label then names the value). */
  label?: string;
  /** How the icon-only button names the value when not as copied (a phone number as formatPhone shows it). */
  name?: string;
  className?: string;
}

/** Copies a phone number, code or key and confirms with "Copied" for 1.5 s. */
export function CopyButton({ value, label, name, className }: CopyButtonProps) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onClick = async () => {
    if (await copyText(value)) {
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 1500);
    }
  };
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label ? undefined : t('common.copyValue', { value: name ?? value })}
      className={cx(
        'inline-flex items-center gap-1 rounded-md px-1.5 py-1 text-xs font-medium text-muted hover:bg-subtle hover:text-fg',
        className,
      )}
    >
      {copied ? (
        <Check className="size-3.5 text-ok" aria-hidden />
      ) : (
        <Copy className="size-3.5" aria-hidden />
      )}
      {copied ? <span aria-live="polite">{t('common.copied')}</span> : label}
    </button>
  );
}

/** A value users copy (phone number, code, key): monospace text followed by its CopyButton. */
export function CopyableText({
  value,
  display,
  className,
  testId,
}: {
  value: string;
  /** What is shown, when not the value itself (a phone number formatted with formatPhone). */
  display?: string;
  /** Classes of the text (size, colour). */
  className?: string;
  testId?: string;
}) {
  return (
    <span className="inline-flex items-center gap-0.5 whitespace-nowrap">
      <span className={cx('font-mono tabular', className)} data-testid={testId} data-value={value}>
        {display ?? value}
      </span>
      {/* Named as shown: a screen reader hears the number as people read it, not its raw digits. */}
      <CopyButton value={value} name={display} />
    </span>
  );
}

import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { cx } from '../../lib/cx.ts';

/**
 * A button that opens a small panel below it. Closes on Esc (focus back to the button), on a click
 * outside, and when `close()` is called from the panel.
 */
export function Popover({
  label,
  button,
  children,
  buttonClassName,
  panelClassName,
}: {
  /** The button's accessible name. */
  label: string;
  button: ReactNode;
  children: (close: () => void) => ReactNode;
  buttonClassName?: string;
  panelClassName?: string;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const btn = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        btn.current?.focus();
      }
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    root.current?.querySelector<HTMLElement>('[data-popover-panel] button, [data-popover-panel] a')?.focus();
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div ref={root} className="relative">
      <button
        ref={btn}
        type="button"
        aria-label={label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
        className={buttonClassName}
      >
        {button}
      </button>
      {open ? (
        <div
          id={panelId}
          data-popover-panel
          className={cx(
            'absolute right-0 z-40 mt-2 rounded-lg border border-line bg-surface p-1.5 shadow-lg',
            panelClassName,
          )}
        >
          {children(() => setOpen(false))}
        </div>
      ) : null}
    </div>
  );
}

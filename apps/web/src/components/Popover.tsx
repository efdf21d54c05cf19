import * as RadixPopover from '@radix-ui/react-popover';
import { type ReactNode, useState } from 'react';
import { cx } from '../lib/cx.ts';

/**
 * A button that opens a small panel below it (Radix Popover: focus moves into the panel, Esc and a
 * click outside close it and focus returns to the button). `children` gets a `close()` function.
 */
export function Popover({
  label,
  button,
  children,
  buttonClassName,
  panelClassName,
  onOpenChange,
}: {
  /** The button's accessible name. */
  label: string;
  button: ReactNode;
  children: (close: () => void) => ReactNode;
  buttonClassName?: string;
  panelClassName?: string;
  onOpenChange?: (open: boolean) => void;
}) {
  const [open, setOpen] = useState(false);
  const change = (next: boolean) => {
    setOpen(next);
    onOpenChange?.(next);
  };
  return (
    <RadixPopover.Root open={open} onOpenChange={change}>
      <RadixPopover.Trigger type="button" aria-label={label} className={buttonClassName}>
        {button}
      </RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content
          align="end"
          sideOffset={8}
          collisionPadding={8}
          className={cx(
            'z-40 max-w-[calc(100vw-16px)] rounded-lg border border-line bg-surface p-1.5 text-fg shadow-lg',
            panelClassName,
          )}
        >
          {children(() => change(false))}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}

import type { Tone } from '@simdock/contract';
import type { ReactNode } from 'react';
import { cx } from '../lib/cx.ts';

const TONES: Record<Tone, string> = {
  green: 'bg-ok-soft text-ok',
  yellow: 'bg-warn-soft text-warn',
  red: 'bg-bad-soft text-bad',
  grey: 'bg-neutral-soft text-neutral',
};

/**
 * Colour AND text. The tone comes from the contract's functions, one per entity:
 *   <StatusBadge tone={orderStatusTone(order.status)}>{order.status}</StatusBadge>
 */
export function StatusBadge({
  tone,
  children,
  className,
  title,
}: {
  tone: Tone;
  children: ReactNode;
  className?: string;
  title?: string;
}) {
  return (
    <span
      title={title}
      className={cx(
        'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap',
        TONES[tone],
        className,
      )}
    >
      <span className="size-1.5 rounded-full bg-current" aria-hidden />
      {children}
    </span>
  );
}

import type { ReactNode } from 'react';
import { useI18n } from '../i18n/index.tsx';
import { formatDateTime, formatRelative, toDate } from '../lib/format.ts';
import { tickFor, useNow } from '../lib/useNow.ts';

export interface RelativeTimeProps {
  /** A Date, an ISO string, or unix seconds (server times); local ms timestamps must be passed as a Date. */
  value: string | number | Date | null | undefined;
  /**
   * The server's clock minus this browser's (ms), when the time was stamped by the server: "38 s ago"
   * then counts from the server's now, not a skewed local clock.
   */
  skewMs?: number;
  /** Wraps the words, e.g. (time) => t('gateways.lastSeen', { time }). */
  children?: (text: string) => ReactNode;
  className?: string;
  /** The tooltip (default: the exact date and time). */
  title?: string;
}

/**
 * "3 min ago" / "in 12 min" that keeps ticking (every second under a minute, then less often), with the
 * exact date and time as its tooltip. Every relative time on screen uses it.
 */
export function RelativeTime({ value, skewMs = 0, children, className, title }: RelativeTimeProps) {
  const { t } = useI18n();
  const d = toDate(value);
  // Two reads of the clock: the first picks how often this time must tick, the second is that clock.
  const coarse = useNow(60_000);
  const now = useNow(d ? tickFor(d.getTime() - coarse - skewMs) : 60_000) + skewMs;
  if (!d) return null;
  const text = formatRelative(d, now, t);
  return (
    <time
      dateTime={d.toISOString()}
      title={title ?? formatDateTime(d, { seconds: true })}
      className={className}
    >
      {children ? children(text) : text}
    </time>
  );
}

import { useCallback, useSyncExternalStore } from 'react';

/**
 * The current time (ms), re-read on a shared interval so relative times ("38 s ago") keep ticking
 * without their data changing. One timer per interval length, however many components watch it.
 */
type Clock = { now: number; listeners: Set<() => void>; timer?: ReturnType<typeof setInterval> };
const clocks = new Map<number, Clock>();

function clockOf(ms: number): Clock {
  let c = clocks.get(ms);
  if (!c) {
    c = { now: Date.now(), listeners: new Set() };
    clocks.set(ms, c);
  }
  return c;
}

function subscribe(ms: number, fn: () => void) {
  const c = clockOf(ms);
  c.listeners.add(fn);
  if (!c.timer) {
    // An idle clock's time is stale: read it afresh (React re-renders when it differs).
    c.now = Date.now();
    c.timer = setInterval(() => {
      c.now = Date.now();
      for (const l of c.listeners) l();
    }, ms);
  }
  return () => {
    c.listeners.delete(fn);
    if (c.listeners.size === 0 && c.timer) {
      clearInterval(c.timer);
      c.timer = undefined;
    }
  };
}

/** Date.now(), updated every `intervalMs` (default 1 s) while the component is mounted. */
export function useNow(intervalMs = 1000): number {
  const sub = useCallback((fn: () => void) => subscribe(intervalMs, fn), [intervalMs]);
  const read = () => clockOf(intervalMs).now;
  return useSyncExternalStore(sub, read, read);
}

/** How often a relative time must change: every second under a minute, then every 15 s, then every minute. */
export function tickFor(diffMs: number): number {
  const abs = Math.abs(diffMs);
  if (abs < 60_000) return 1000;
  if (abs < 3_600_000) return 15_000;
  return 60_000;
}

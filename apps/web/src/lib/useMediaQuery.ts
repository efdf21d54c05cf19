import { useSyncExternalStore } from 'react';

/** Whether a CSS media query matches, updated live. False where matchMedia is missing (tests). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (fn) => {
      const mq = window.matchMedia?.(query);
      mq?.addEventListener('change', fn);
      return () => mq?.removeEventListener('change', fn);
    },
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}

/** Phones (below Tailwind's `sm`, 640 px): tables become cards. */
export const PHONE_QUERY = '(max-width: 639.98px)';

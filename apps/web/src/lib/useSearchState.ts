import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A list's filters, sort and page kept in the URL's search params, so a reload, a shared link and Back
 * show the same list. Every value is text; a value equal to its default is left out of the URL.
 * Pass `defaults` as a module constant (a new object each render would recompute the state).
 * `set(patch)` pushes a history entry; `{ replace: true }` does not (typing into a search box).
 * The new URL renders at once (flushSync), not in a transition: a click right after another (a double
 * click on a sort header, Next twice) must see the list the first one asked for, not the one before it.
 * Needs the app's router provider (app/router.tsx, AppRouterProvider).
 */
export function useSearchState<T extends Record<string, string>>(
  defaults: T,
): [T, (patch: Partial<T>, opts?: { replace?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => {
    const out = { ...defaults };
    for (const k of Object.keys(defaults) as (keyof T & string)[]) {
      const v = params.get(k);
      if (v !== null) out[k] = v as T[typeof k];
    }
    return out;
  }, [params, defaults]);
  const set = useCallback(
    (patch: Partial<T>, opts: { replace?: boolean } = {}) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(patch)) {
            if (v === undefined || v === defaults[k]) next.delete(k);
            else next.set(k, v);
          }
          return next;
        },
        { replace: opts.replace, flushSync: true },
      );
    },
    [setParams, defaults],
  );
  return [state, set];
}

/** A whole number ≥ 1 from the URL (page numbers), else `fallback`. */
export function pageNumber(text: string, fallback = 1): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

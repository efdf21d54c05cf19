import { WifiOff } from 'lucide-react';
import { type ComponentType, type ReactNode, useEffect, useState } from 'react';
import { Button } from '../components/Button.tsx';
import { useI18n } from '../i18n/index.tsx';
import { useLiveStatus } from '../live/live-status.ts';

/** The page this session reloaded once because its code would not load with the server back. */
const RELOADED_KEY = 'simdock.chunkReload';

/** Retries, at most this far apart, while a page's code cannot load. */
const MAX_RETRY_MS = 5000;

/**
 * A route's lazy loader that survives an outage: when the page's code (its chunk) cannot load, as
 * when the server is restarting, the route shows "No connection" where the page goes (the shell
 * stays) and keeps trying; once the code arrives the page renders by itself, no reload needed.
 */
export function lazyPage(load: () => Promise<ComponentType>) {
  return async (): Promise<{ Component: ComponentType } | { element: ReactNode }> => {
    try {
      return { Component: await load() };
    } catch {
      let loaded: ComponentType | undefined;
      const source: PageSource = {
        loaded: () => loaded,
        load: async () => {
          loaded ??= await load();
          return loaded;
        },
      };
      // The route keeps this element: once the code has loaded, later visits render the page at once.
      return { element: <PageUnavailable source={source} /> };
    }
  };
}

/** A page's code: what has loaded of it, and another try at loading it. */
interface PageSource {
  loaded: () => ComponentType | undefined;
  load: () => Promise<ComponentType>;
}

/** "No connection" in the page's place, retrying until the page's code loads, then the page. */
export function PageUnavailable({ source }: { source: PageSource }) {
  const { t } = useI18n();
  const [Page, setPage] = useState<ComponentType | undefined>(source.loaded);
  useEffect(() => {
    if (source.loaded()) return;
    let stopped = false;
    let delay = 1000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = async () => {
      clearTimeout(timer);
      try {
        const page = await source.load();
        if (!stopped) setPage(() => page);
      } catch {
        if (stopped) return;
        timer = setTimeout(attempt, delay);
        delay = Math.min(delay * 2, MAX_RETRY_MS);
      }
    };
    timer = setTimeout(attempt, delay);
    window.addEventListener('online', attempt);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('online', attempt);
    };
  }, [source]);
  // The server answers again (the live stream is back) and still the code does not load: a browser
  // that remembers a failed module import (some do, until a reload) gets one reload, once per
  // session, not a loop if the page itself is broken.
  const live = useLiveStatus();
  useEffect(() => {
    if (live !== 'live' || source.loaded()) return;
    let stopped = false;
    source.load().then(
      (page) => !stopped && setPage(() => page),
      () => {
        if (stopped || sessionStorage.getItem(RELOADED_KEY) === location.pathname) return;
        sessionStorage.setItem(RELOADED_KEY, location.pathname);
        location.reload();
      },
    );
    return () => {
      stopped = true;
    };
  }, [live, source]);
  if (Page) return <Page />;
  // The failure view of components/StateViews.tsx (ErrorState), drawn here: this module is in the
  // sign-in page's bundle (every route's loader uses it), which has a budget (apps/web/scripts/budget.mjs).
  return (
    <div
      role="alert"
      data-testid="error-state"
      className="flex flex-col items-center gap-2 px-6 py-10 text-center"
    >
      <span className="rounded-full bg-bad-soft p-3 text-bad">
        <WifiOff className="size-6" aria-hidden />
      </span>
      <p className="font-semibold text-fg">{t('state.noConnection')}</p>
      <p className="max-w-md text-[13px] text-muted">{t('state.pageWaiting')}</p>
      <Button
        size="sm"
        className="mt-1.5"
        onClick={() =>
          void source.load().then(
            (page) => setPage(() => page),
            () => {},
          )
        }
      >
        {t('common.retry')}
      </Button>
    </div>
  );
}

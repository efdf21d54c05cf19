import type { Service } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { listenEvents } from '../../events.ts';
import { runtimeKey } from '../../runtime.ts';

/**
 * The catalogue's availability, kept per server process (docs/architecture.md, "The catalogue's
 * availability"). Computing it reads every usable SIM against its orders for every service, so the
 * public and polled calls share one computation instead of each making its own:
 *
 * - one computation in flight per process: callers that arrive while it runs wait for it;
 * - a change this process makes (a rent, a release, a service or spent-number change) marks the
 *   availability stale after its commit, so the next caller waits for a fresh computation (one that
 *   started before the change is not kept);
 * - another process's order and gateway changes arrive as events and do the same;
 * - anything else (a gateway going silent, the clock passing a cooldown) is seen within
 *   CATALOGUE_CACHE_SECONDS of the computation's end: past that age a caller gets the old value while
 *   one new computation runs (for one more such period at most), then waits.
 */
export interface AvailabilityCache<T = Service[]> {
  /** Every service with its `available`, as of a computation no older than the rules above. */
  services(): Promise<T>;
  /** Something availability depends on changed (call after the change commits). */
  invalidate(): void;
}

const CACHE = runtimeKey<AvailabilityCache<unknown>>('rental.availability');

export function availabilityCache<T = Service[]>(
  ctx: AppContext,
  compute: () => Promise<T>,
): AvailabilityCache<T> {
  // One cache per process, made by its one caller (services.service.ts), so T is that caller's.
  return ctx.runtime.get(CACHE, () => {
    /** Moves on every invalidation: a computation that started before one is not kept. */
    let epoch = 0;
    let kept: { services: T; at: number; epoch: number } | undefined;
    let running: { promise: Promise<T>; epoch: number } | undefined;

    const start = (): Promise<T> => {
      if (running && running.epoch === epoch) return running.promise;
      const started = epoch;
      const promise = compute().then(
        (services) => {
          // Its age counts from its end: a computation slower than the age limit is still reused.
          if (started === epoch) kept = { services, at: ctx.clock.now().getTime(), epoch: started };
          if (running?.promise === promise) running = undefined;
          return services;
        },
        (err: unknown) => {
          if (running?.promise === promise) running = undefined;
          throw err;
        },
      );
      running = { promise, epoch: started };
      return promise;
    };

    const cache: AvailabilityCache<T> = {
      services() {
        const ttlMs = ctx.config.CATALOGUE_CACHE_SECONDS * 1000;
        if (!kept || kept.epoch !== epoch || ttlMs === 0) return start();
        const age = ctx.clock.now().getTime() - kept.at;
        if (age >= 0 && age < ttlMs) return Promise.resolve(kept.services);
        if (age >= 0 && age < 2 * ttlMs) {
          // Refresh behind the answer; a failed refresh is retried by the next caller.
          start().catch(() => {});
          return Promise.resolve(kept.services);
        }
        return start();
      },
      invalidate() {
        epoch += 1;
        kept = undefined;
      },
    };

    return cache;
  }) as AvailabilityCache<T>;
}

/**
 * Another process's rents and releases (order events) and gateway edits reach this one as events;
 * returns the stopper.
 */
export function watchAvailabilityChanges(
  ctx: AppContext,
  cache: () => { invalidate(): void },
): Promise<() => Promise<void>> {
  return listenEvents(ctx.db, (event) => {
    if (event.type === 'order' || event.type === 'gateway') cache().invalidate();
  });
}

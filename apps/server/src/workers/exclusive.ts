import type { Listener } from '../context.ts';

export interface ExclusiveOptions {
  /** Names the lock: every process that runs this listener uses the same name. */
  lock: string;
  /** How often a waiting process tries to take over, and the holder checks its connection. */
  retryMs?: number;
  /** Told when this process starts or stops holding it (tests, metrics). */
  onHolding?: (holding: boolean) => void;
}

/**
 * A listener that at most one server process runs at a time (one UDP port per deployment): the
 * process that holds a PostgreSQL session advisory lock runs it, the others try again every
 * `retryMs`. The lock lives on one connection of the holder, so when that process dies (or its
 * connection does) the database releases it and another process takes over within `retryMs`. The
 * holder checks its connection as often; losing it stops the inner listener before another can
 * start it. On PGlite (one process) the first try holds it.
 */
export function exclusiveListener(inner: Listener, opts: ExclusiveOptions): Listener {
  const retryMs = opts.retryMs ?? 2000;
  return {
    name: `${inner.name} (one process at a time)`,
    async start(ctx) {
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      let wake: (() => void) | undefined;
      let running: Promise<void> = Promise.resolve();
      const later = () => {
        if (!stopped) timer = setTimeout(attempt, retryMs);
      };
      const attempt = () => {
        running = ctx.db
          .session(async (c) => {
            const [row] = await c.query<{ held: boolean }>(
              'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS held',
              [opts.lock],
            );
            if (!row?.held || stopped) {
              if (row?.held) await c.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [opts.lock]);
              return;
            }
            const stopInner = await inner.start(ctx);
            opts.onHolding?.(true);
            ctx.log.info({ listener: inner.name }, 'this process holds the listener');
            try {
              // Held until stopped, or until this connection (and with it the lock) is gone.
              while (!stopped) {
                await new Promise<void>((resolve) => {
                  wake = resolve;
                  setTimeout(resolve, retryMs).unref();
                });
                if (stopped) break;
                await c.query('SELECT 1');
              }
            } finally {
              await stopInner();
              opts.onHolding?.(false);
            }
            await c.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [opts.lock]).catch(() => {});
          })
          .catch((err) => {
            ctx.log.warn({ err, listener: inner.name }, 'lost or could not take the listener; trying again');
          })
          .finally(later);
      };
      attempt();
      return async () => {
        stopped = true;
        clearTimeout(timer);
        wake?.();
        await running;
      };
    },
  };
}

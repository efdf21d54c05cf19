import type { AppContext } from '../context.ts';

/**
 * Runs `tick` every `intervalMs` until stopped; an error is logged and the loop goes on.
 * Ticks never overlap. Returns the stopper.
 */
export function every(ctx: AppContext, name: string, intervalMs: number, tick: () => Promise<unknown>) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const run = async () => {
    if (stopped) return;
    running = tick().catch((err) => ctx.log.error({ err, worker: name }, 'worker tick failed'));
    await running;
    if (!stopped) timer = setTimeout(run, intervalMs);
  };
  timer = setTimeout(run, intervalMs);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}

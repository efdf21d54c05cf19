import type { AppContext } from '../context.ts';
import { every } from './loop.ts';

/** Starts every module's background jobs (from the registry); returns a function that stops them. */
export async function startWorkers(ctx: AppContext): Promise<() => Promise<void>> {
  const stoppers = ctx.registry.jobs.map((job) =>
    every(ctx, job.name, job.intervalMs(ctx), () => job.run(ctx)),
  );
  return async () => {
    await Promise.all(stoppers.map((stop) => stop()));
  };
}

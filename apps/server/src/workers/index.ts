import type { AppContext } from '../context.ts';

/** Starts the background loops; returns a function that stops them. */
export async function startWorkers(_ctx: AppContext): Promise<() => Promise<void>> {
  return async () => {};
}

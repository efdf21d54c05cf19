import type { AppContext } from '../context.ts';

/**
 * Starts every module's listeners (from the registry) one after another, in module order; if one
 * fails to start, the ones already started are stopped and the error is thrown. Returns the
 * function that stops them in reverse order (a listener that fails to stop is logged, the others
 * still stop).
 */
export async function startListeners(ctx: AppContext): Promise<() => Promise<void>> {
  const started: { name: string; stop: () => Promise<void> }[] = [];
  const stopAll = async () => {
    for (const { name, stop } of started.splice(0).reverse()) {
      await stop().catch((err) => ctx.log.error({ err, listener: name }, 'listener did not stop cleanly'));
    }
  };
  for (const listener of ctx.registry.listeners) {
    try {
      started.push({ name: listener.name, stop: await listener.start(ctx) });
    } catch (err) {
      await stopAll();
      throw err;
    }
  }
  return stopAll;
}

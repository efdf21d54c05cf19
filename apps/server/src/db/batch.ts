import { type Runtime, runtimeKey } from '../runtime.ts';

/**
 * Coalesces lookups by key made in the same turn of the event loop into one call of `load`
 * (one query instead of one per key), as a DataLoader does. Lookups made while a load runs wait for
 * the next one. Each caller gets its own key's value, or undefined when `load` has none for it; a
 * failed load fails every lookup it carried. No caching: every load reads current data.
 */
export function batchLoader<K, V>(
  load: (keys: K[]) => Promise<Map<K, V>>,
  maxBatch = 500,
): (key: K) => Promise<V | undefined> {
  const pending: { key: K; resolve: (v: V | undefined) => void; reject: (e: unknown) => void }[] = [];
  const flush = () => {
    const batch = pending.splice(0, maxBatch);
    if (pending.length > 0) setImmediate(flush);
    const keys = [...new Set(batch.map((p) => p.key))];
    load(keys).then(
      (found) => {
        for (const p of batch) p.resolve(found.get(p.key));
      },
      (err: unknown) => {
        for (const p of batch) p.reject(err);
      },
    );
  };
  return (key) =>
    new Promise((resolve, reject) => {
      // setImmediate runs after the I/O callbacks of this turn: every notification read in one
      // chunk of the socket has asked for its key by then.
      if (pending.length === 0) setImmediate(flush);
      pending.push({ key, resolve, reject });
    });
}

/**
 * batchLoader per server: one loader per server, kept in its `ctx.runtime` (made on first use), so
 * lookups are batched within a server and never across the servers one process may hold (tests run
 * several). The module-level value this returns holds no loader, only the key it is kept under.
 */
export function batchLoaderPerServer<C extends { runtime: Runtime }, K, V>(
  load: (ctx: C, keys: K[]) => Promise<Map<K, V>>,
): (ctx: C, key: K) => Promise<V | undefined> {
  const slot = runtimeKey<(key: K) => Promise<V | undefined>>('batchLoader');
  return (ctx, key) => ctx.runtime.get(slot, () => batchLoader((keys: K[]) => load(ctx, keys)))(key);
}

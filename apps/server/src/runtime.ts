/**
 * What one server keeps in memory while it runs: queues (the incoming-SMS group commit), batch
 * loaders, the chosen payment provider. One per server, made where its AppContext is built
 * (`app.ts`), so a test's server, or a second server in one process, never shares them with
 * another. A module names its value with a key of its own (`runtimeKey`, a symbol: it holds
 * nothing) and gets it with `ctx.runtime.get(key, create)`; `create` runs on first use. A copy of
 * a context (`{ ...ctx, clock }`) is the same server and shares its runtime.
 */
export class Runtime {
  private readonly values = new Map<symbol, unknown>();

  get<T>(key: RuntimeKey<T>, create: () => T): T {
    if (this.values.has(key)) return this.values.get(key) as T;
    const value = create();
    this.values.set(key, value);
    return value;
  }
}

/** Names a per-server value of type T (the type is only for the compiler). */
export type RuntimeKey<T> = symbol & { readonly __runtimeValue?: T };

export function runtimeKey<T>(name: string): RuntimeKey<T> {
  return Symbol(name) as RuntimeKey<T>;
}

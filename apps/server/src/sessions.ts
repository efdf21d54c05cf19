/**
 * This process's open sessions by key (a user's live streams; next, a device line's socket or an
 * SMPP bind), and the messages for them. A message for a key goes to every subscriber of that key,
 * in the order the messages were published, even when making one takes time (an event rendered from
 * the database): one chain per key, keys in parallel. A message for a key with no subscriber here
 * is not made at all (another process holds that session).
 */
export class SessionsHub<K, M> {
  private readonly byKey = new Map<K, Set<(message: M) => void>>();
  private readonly chains = new Map<K, Promise<void>>();

  constructor(private readonly onError: (err: unknown, key: K) => void) {}

  /** Whether this process holds a session for `key`. */
  has(key: K): boolean {
    return this.byKey.has(key);
  }

  subscribe(key: K, deliver: (message: M) => void): () => void {
    let set = this.byKey.get(key);
    if (!set) {
      set = new Set();
      this.byKey.set(key, set);
    }
    set.add(deliver);
    return () => {
      set.delete(deliver);
      if (set.size === 0 && this.byKey.get(key) === set) this.byKey.delete(key);
    };
  }

  /**
   * Queues a message for `key`'s subscribers; `make` answers it (or undefined: nothing to send).
   * Resolves when it has been handed over. Does nothing when no subscriber is here.
   */
  publish(key: K, make: () => M | undefined | Promise<M | undefined>): Promise<void> {
    if (!this.byKey.has(key)) return Promise.resolve();
    const next = (this.chains.get(key) ?? Promise.resolve()).then(async () => {
      try {
        const message = await make();
        if (message === undefined) return;
        for (const deliver of this.byKey.get(key) ?? []) deliver(message);
      } catch (err) {
        this.onError(err, key);
      }
    });
    this.chains.set(key, next);
    void next.then(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
    return next;
  }

  /** Every session forgotten (the server stops; the sessions themselves are ended by their owner). */
  clear(): void {
    this.byKey.clear();
  }
}

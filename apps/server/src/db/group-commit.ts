/**
 * How one group commit writes: `together` writes a whole batch (one transaction), `alone` one item
 * (the fallback when a batch fails).
 */
export interface GroupCommitOptions<I, R> {
  /** Writes the batch together; one result per item, in the batch's order. Throws: the batch failed. */
  together: (batch: I[]) => Promise<R[]>;
  /** Writes one item on its own (after its batch failed); its result, or its caller's error. */
  alone: (item: I) => Promise<R>;
  /** The most items one batch takes; more wait for the next. */
  maxBatch: number;
  /** How many batches run at once (default 1). */
  parallel?: number;
  /** Order of the items within a batch (a stable sort; default: submission order). */
  order?: (a: I, b: I) => number;
  /**
   * A batch error that makes the fallback pointless (a lost database): every caller of the batch
   * gets it. Default: none, every failed batch falls back.
   */
  fatal?: (err: unknown) => boolean;
  /**
   * After a failed batch, items of one lane are written alone one after the other, in batch order;
   * lanes run side by side. Default: one lane for the whole batch.
   */
  lane?: (item: I) => string;
}

export interface GroupCommit<I, R> {
  /** Queues one item; resolves with its own result (or rejects with its own error). */
  submit(item: I): Promise<R>;
}

/**
 * A group-commit queue. An item submitted while fewer than `parallel` batches are being written
 * starts one at once; items submitted meanwhile wait and are written together in the next free one
 * (at most `maxBatch` per batch, in `order`). Idle, nothing waits.
 *
 * If `together` throws an error that is not `fatal`, each item of the batch is written again with
 * `alone` (per `lane`, in order; lanes side by side), so one bad item cannot fail the others; each
 * caller gets its item's result or error. The fallback is not awaited by the queue: an item that is
 * slow on its own does not hold up the next batches. No item is written by more than one successful
 * call, and every submitted item is settled exactly once.
 */
export function groupCommit<I, R>(opts: GroupCommitOptions<I, R>): GroupCommit<I, R> {
  type Waiting = { item: I; resolve: (r: R) => void; reject: (err: unknown) => void };
  const parallel = opts.parallel ?? 1;
  const waiting: Waiting[] = [];
  let inFlight = 0;

  const pump = (): void => {
    while (inFlight < parallel && waiting.length > 0) {
      const batch = waiting.splice(0, opts.maxBatch);
      if (opts.order) {
        const order = opts.order;
        batch.sort((a, b) => order(a.item, b.item));
      }
      inFlight += 1;
      void run(batch).finally(() => {
        inFlight -= 1;
        pump();
      });
    }
  };

  const run = async (batch: Waiting[]): Promise<void> => {
    let results: R[];
    try {
      results = await opts.together(batch.map((w) => w.item));
    } catch (err) {
      if (opts.fatal?.(err)) {
        for (const w of batch) w.reject(err);
        return;
      }
      fallBack(batch);
      return;
    }
    batch.forEach((w, i) => {
      w.resolve(results[i] as R);
    });
  };

  const fallBack = (batch: Waiting[]): void => {
    const lanes = new Map<string, Waiting[]>();
    for (const w of batch) {
      const key = opts.lane ? opts.lane(w.item) : '';
      const list = lanes.get(key);
      if (list) list.push(w);
      else lanes.set(key, [w]);
    }
    for (const list of lanes.values()) {
      void (async () => {
        for (const w of list) {
          try {
            w.resolve(await opts.alone(w.item));
          } catch (err) {
            w.reject(err);
          }
        }
      })();
    }
  };

  return {
    submit: (item) =>
      new Promise<R>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        pump();
      }),
  };
}

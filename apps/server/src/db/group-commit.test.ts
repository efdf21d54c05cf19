import { describe, expect, it } from 'vitest';
import { type GroupCommitOptions, groupCommit } from './group-commit.ts';

/** A promise with its resolve, to hold a batch open while more items are submitted. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
}

const tick = () => new Promise((r) => setImmediate(r));

/** A writer that records each batch and each lone write; items starting with "bad" fail. */
function recorder(extra: Partial<GroupCommitOptions<string, string>> = {}) {
  const batches: string[][] = [];
  const alone: string[] = [];
  const written: string[] = [];
  const opts: GroupCommitOptions<string, string> = {
    maxBatch: 100,
    together: async (batch) => {
      batches.push([...batch]);
      if (batch.some((i) => i.startsWith('bad'))) throw new Error('batch refused');
      written.push(...batch);
      return batch.map((i) => `ok ${i}`);
    },
    alone: async (item) => {
      alone.push(item);
      if (item.startsWith('bad')) throw new Error(`refused ${item}`);
      written.push(item);
      return `alone ${item}`;
    },
    ...extra,
  };
  return { gc: groupCommit(opts), batches, alone, written };
}

describe('groupCommit', () => {
  it('writes an item at once when idle, each caller getting its own result', async () => {
    const { gc, batches } = recorder();
    expect(await gc.submit('a')).toBe('ok a');
    expect(await gc.submit('b')).toBe('ok b');
    expect(batches).toEqual([['a'], ['b']]);
  });

  it('writes items submitted while a batch runs together in the next one, in order', async () => {
    const hold = gate();
    const batches: string[][] = [];
    const gc = groupCommit<string, string>({
      maxBatch: 100,
      together: async (batch) => {
        batches.push([...batch]);
        if (batches.length === 1) await hold.opened;
        return batch.map((i) => i.toUpperCase());
      },
      alone: async () => {
        throw new Error('not expected');
      },
    });
    const first = gc.submit('a');
    const rest = ['b', 'c', 'd'].map((i) => gc.submit(i));
    await tick();
    expect(batches).toEqual([['a']]);
    hold.open();
    expect(await Promise.all([first, ...rest])).toEqual(['A', 'B', 'C', 'D']);
    expect(batches).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('takes at most maxBatch items per batch and sorts each batch by order', async () => {
    const hold = gate();
    const batches: string[][] = [];
    const gc = groupCommit<string, string>({
      maxBatch: 3,
      order: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
      together: async (batch) => {
        batches.push([...batch]);
        if (batches.length === 1) await hold.opened;
        return batch;
      },
      alone: async (i) => i,
    });
    const all = ['z', 'e', 'd', 'c', 'b', 'a'].map((i) => gc.submit(i));
    await tick();
    hold.open();
    expect(await Promise.all(all)).toEqual(['z', 'e', 'd', 'c', 'b', 'a']);
    expect(batches).toEqual([['z'], ['c', 'd', 'e'], ['a', 'b']]);
  });

  it('runs at most `parallel` batches at once', async () => {
    let running = 0;
    let most = 0;
    const gc = groupCommit<number, number>({
      maxBatch: 2,
      parallel: 2,
      together: async (batch) => {
        running += 1;
        most = Math.max(most, running);
        await tick();
        running -= 1;
        return batch.map((n) => n * 2);
      },
      alone: async (n) => n,
    });
    const got = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => gc.submit(n)));
    expect(got).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(most).toBe(2);
  });

  it('falls back to one write per item when a batch fails: only the bad item fails', async () => {
    const r = recorder();
    const first = r.gc.submit('first');
    // Submitted while the first batch is being written: the next batch.
    const results = Promise.allSettled(['a', 'bad1', 'b'].map((i) => r.gc.submit(i)));
    expect(await first).toBe('ok first');
    const settled = await results;
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([
      'alone a',
      'refused bad1',
      'alone b',
    ]);
    expect(r.batches).toEqual([['first'], ['a', 'bad1', 'b']]);
    expect(r.alone).toEqual(['a', 'bad1', 'b']);
    // Nothing lost, nothing written twice.
    expect(r.written.sort()).toEqual(['a', 'b', 'first']);
  });

  it('keeps each lane in order in the fallback, lanes side by side, and goes on with the next batches', async () => {
    const order: string[] = [];
    const slow = gate();
    const gc = groupCommit<string, string>({
      maxBatch: 100,
      lane: (i) => i[0]!,
      together: async (batch) => {
        if (batch.length > 1) throw new Error('batch refused');
        return batch.map((i) => `together ${i}`);
      },
      alone: async (i) => {
        if (i === 'a1') await slow.opened;
        order.push(i);
        return `alone ${i}`;
      },
    });
    const hold = gc.submit('x');
    const batch = ['a1', 'b1', 'a2', 'b2'].map((i) => gc.submit(i));
    await hold;
    await tick();
    // Lane b is done while a1 still waits; a2 waits for a1.
    expect(order).toEqual(['b1', 'b2']);
    // A slow fallback does not hold up the next batch.
    expect(await gc.submit('y')).toBe('together y');
    slow.open();
    expect(await Promise.all(batch)).toEqual(['alone a1', 'alone b1', 'alone a2', 'alone b2']);
    expect(order).toEqual(['b1', 'b2', 'a1', 'a2']);
  });

  it('fails every item of a batch with a fatal error, without fallback; the next batch works', async () => {
    let down = true;
    const alone: string[] = [];
    const gc = groupCommit<string, string>({
      maxBatch: 100,
      fatal: (err) => (err as Error).message === 'database gone',
      together: async (batch) => {
        if (down) throw new Error('database gone');
        return batch;
      },
      alone: async (i) => {
        alone.push(i);
        return i;
      },
    });
    const settled = await Promise.allSettled([gc.submit('a'), gc.submit('b')]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect(alone).toEqual([]);
    down = false;
    expect(await gc.submit('c')).toBe('c');
  });

  it('settles every one of many concurrent submits exactly once, none lost or duplicated', async () => {
    const seen = new Map<number, number>();
    const count = (n: number) => seen.set(n, (seen.get(n) ?? 0) + 1);
    const gc = groupCommit<number, number>({
      maxBatch: 7,
      together: async (batch) => {
        await tick();
        if (batch.includes(13)) throw new Error('unlucky');
        for (const n of batch) count(n);
        return batch;
      },
      alone: async (n) => {
        await tick();
        if (n === 13) throw new Error('unlucky alone');
        count(n);
        return n;
      },
    });
    const items = Array.from({ length: 200 }, (_, i) => i);
    const settled = await Promise.allSettled(
      items.map(async (n) => {
        if (n % 10 === 0) await tick();
        return gc.submit(n);
      }),
    );
    expect(settled.filter((s) => s.status === 'rejected')).toHaveLength(1);
    expect(settled[13]!.status).toBe('rejected');
    for (const [i, s] of settled.entries())
      if (i !== 13) expect(s).toEqual({ status: 'fulfilled', value: i });
    expect([...seen.keys()].sort((a, b) => a - b)).toEqual(items.filter((n) => n !== 13));
    expect([...seen.values()].every((c) => c === 1)).toBe(true);
  });
});

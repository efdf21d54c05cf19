import { describe, expect, it } from 'vitest';
import { Runtime } from '../runtime.ts';
import { batchLoader, batchLoaderPerServer } from './batch.ts';

describe('batchLoader', () => {
  it('reads the keys asked for in one turn with one load, each caller getting its own value', async () => {
    const loads: string[][] = [];
    const read = batchLoader(async (keys: string[]) => {
      loads.push(keys);
      return new Map(keys.filter((k) => k !== 'gone').map((k) => [k, `row ${k}`]));
    });
    const got = await Promise.all(['1', '2', '1', 'gone', '3'].map(read));
    expect(got).toEqual(['row 1', 'row 2', 'row 1', undefined, 'row 3']);
    expect(loads).toEqual([['1', '2', 'gone', '3']]);
  });

  it('reads again on a later turn: no value is kept', async () => {
    let version = 0;
    const loads: string[][] = [];
    const read = batchLoader(async (keys: string[]) => {
      loads.push(keys);
      version += 1;
      return new Map(keys.map((k) => [k, `${k}@${version}`]));
    });
    expect(await read('a')).toBe('a@1');
    expect(await Promise.all([read('a'), read('b')])).toEqual(['a@2', 'b@2']);
    expect(loads).toEqual([['a'], ['a', 'b']]);
  });

  it('fails every lookup of a failed load, and the next load works', async () => {
    let fail = true;
    const read = batchLoader(async (keys: string[]) => {
      if (fail) throw new Error('database went away');
      return new Map(keys.map((k) => [k, k]));
    });
    const results = await Promise.allSettled([read('x'), read('y')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await read('x')).toBe('x');
  });

  it('splits a burst larger than the batch limit over several loads', async () => {
    const sizes: number[] = [];
    const read = batchLoader(async (keys: number[]) => {
      sizes.push(keys.length);
      return new Map(keys.map((k) => [k, k * 2]));
    }, 3);
    expect(await Promise.all([1, 2, 3, 4, 5, 6, 7].map(read))).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(sizes).toEqual([3, 3, 1]);
  });

  it('per server: each server reads its own keys from its own database, batched within it', async () => {
    const loads: string[] = [];
    const read = batchLoaderPerServer(async (ctx: { name: string; runtime: Runtime }, keys: number[]) => {
      loads.push(`${ctx.name}:${keys.join(',')}`);
      return new Map(keys.map((k) => [k, `${ctx.name}/${k}`]));
    });
    const a = { name: 'a', runtime: new Runtime() };
    const b = { name: 'b', runtime: new Runtime() };
    expect(await Promise.all([read(a, 1), read(b, 1), read(a, 2)])).toEqual(['a/1', 'b/1', 'a/2']);
    expect(loads.sort()).toEqual(['a:1,2', 'b:1']);
    // The loader lives in the server's runtime: a new server (a new runtime) gets a new one.
    const a2 = { name: 'a2', runtime: new Runtime() };
    expect(await read(a2, 1)).toBe('a2/1');
  });
});

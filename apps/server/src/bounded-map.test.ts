import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map.ts';

describe('BoundedMap', () => {
  it('keeps at most its bound, dropping the oldest key; setting a kept key again drops nothing', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1).set('b', 2);
    m.set('a', 10);
    expect([...m]).toEqual([
      ['a', 10],
      ['b', 2],
    ]);
    m.set('c', 3);
    expect([...m]).toEqual([
      ['b', 2],
      ['c', 3],
    ]);
    expect(m.get('a')).toBeUndefined();
  });
});

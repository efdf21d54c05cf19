import { describe, expect, it } from 'vitest';
import { Runtime, runtimeKey } from './runtime.ts';

describe('Runtime', () => {
  it('makes a value once per runtime, on first use, and never shares it with another runtime', () => {
    const key = runtimeKey<{ n: number }>('counter');
    let made = 0;
    const create = () => ({ n: ++made });
    const a = new Runtime();
    const b = new Runtime();
    expect(made).toBe(0);
    const first = a.get(key, create);
    expect(a.get(key, create)).toBe(first);
    expect(b.get(key, create)).not.toBe(first);
    expect(made).toBe(2);
  });

  it('keeps values of different keys apart, even with the same name, and keeps a null value', () => {
    const one = runtimeKey<string | null>('same');
    const two = runtimeKey<string | null>('same');
    const r = new Runtime();
    let calls = 0;
    expect(
      r.get(one, () => {
        calls++;
        return null;
      }),
    ).toBeNull();
    expect(r.get(one, () => 'again')).toBeNull();
    expect(r.get(two, () => 'two')).toBe('two');
    expect(calls).toBe(1);
  });
});

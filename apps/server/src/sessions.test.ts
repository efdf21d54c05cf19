import { describe, expect, it } from 'vitest';
import { SessionsHub } from './sessions.ts';

const later = <T>(ms: number, value: T) => new Promise<T>((r) => setTimeout(() => r(value), ms));

describe('SessionsHub', () => {
  it("delivers a key's messages to every subscriber of that key, in the order published", async () => {
    const hub = new SessionsHub<string, string>(() => {});
    const a: string[] = [];
    const b: string[] = [];
    const other: string[] = [];
    hub.subscribe('u1', (m) => a.push(m));
    hub.subscribe('u1', (m) => b.push(m));
    hub.subscribe('u2', (m) => other.push(m));
    // The first message takes longest to make: it still goes out first.
    const sent = [
      hub.publish('u1', () => later(30, 'first')),
      hub.publish('u1', () => 'second'),
      hub.publish('u1', () => later(5, 'third')),
    ];
    await Promise.all(sent);
    expect(a).toEqual(['first', 'second', 'third']);
    expect(b).toEqual(['first', 'second', 'third']);
    expect(other).toEqual([]);
  });

  it('keys run side by side: a slow key does not hold back another', async () => {
    const hub = new SessionsHub<string, string>(() => {});
    const seen: string[] = [];
    hub.subscribe('slow', (m) => seen.push(m));
    hub.subscribe('fast', (m) => seen.push(m));
    const slow = hub.publish('slow', () => later(40, 'slow'));
    await hub.publish('fast', () => 'fast');
    expect(seen).toEqual(['fast']);
    await slow;
    expect(seen).toEqual(['fast', 'slow']);
  });

  it('makes nothing for a key without a subscriber here, and skips an undefined message', async () => {
    const hub = new SessionsHub<string, string>(() => {});
    let made = 0;
    await hub.publish('nobody', () => {
      made += 1;
      return 'x';
    });
    expect(made).toBe(0);
    const seen: string[] = [];
    const unsubscribe = hub.subscribe('u', (m) => seen.push(m));
    await hub.publish('u', () => undefined);
    await hub.publish('u', () => 'kept');
    unsubscribe();
    expect(hub.has('u')).toBe(false);
    await hub.publish('u', () => 'after');
    expect(seen).toEqual(['kept']);
  });

  it('a message that fails to be made is reported and the next one still goes out', async () => {
    const errors: [unknown, string][] = [];
    const hub = new SessionsHub<string, string>((err, key) => errors.push([err, key]));
    const seen: string[] = [];
    hub.subscribe('u', (m) => seen.push(m));
    void hub.publish('u', async () => {
      throw new Error('render failed');
    });
    await hub.publish('u', () => 'next');
    expect(seen).toEqual(['next']);
    expect(errors).toHaveLength(1);
    expect(errors[0]![1]).toBe('u');
  });
});

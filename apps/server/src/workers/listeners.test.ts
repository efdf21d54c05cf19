import { describe, expect, it } from 'vitest';
import { type AppContext, emptyRegistry, type Listener } from '../context.ts';
import { startListeners } from './listeners.ts';

function contextWith(listeners: Listener[], logged: string[]): AppContext {
  const registry = emptyRegistry();
  registry.listeners.push(...listeners);
  const log = { error: (_o: unknown, msg: string) => logged.push(msg) };
  return { registry, log } as unknown as AppContext;
}

function recording(name: string, events: string[], fail?: 'start' | 'stop'): Listener {
  return {
    name,
    async start() {
      if (fail === 'start') throw new Error(`${name} cannot start`);
      events.push(`start ${name}`);
      return async () => {
        events.push(`stop ${name}`);
        if (fail === 'stop') throw new Error(`${name} cannot stop`);
      };
    },
  };
}

describe('startListeners', () => {
  it('starts in order and stops in reverse order', async () => {
    const events: string[] = [];
    const stop = await startListeners(
      contextWith([recording('a', events), recording('b', events), recording('c', events)], []),
    );
    expect(events).toEqual(['start a', 'start b', 'start c']);
    await stop();
    expect(events.slice(3)).toEqual(['stop c', 'stop b', 'stop a']);
    await stop(); // a second stop stops nothing twice
    expect(events).toHaveLength(6);
  });

  it('one that cannot start stops those already started, and the error reaches the caller', async () => {
    const events: string[] = [];
    const ctx = contextWith(
      [
        recording('a', events),
        recording('b', events),
        recording('broken', events, 'start'),
        recording('d', events),
      ],
      [],
    );
    await expect(startListeners(ctx)).rejects.toThrow('broken cannot start');
    expect(events).toEqual(['start a', 'start b', 'stop b', 'stop a']);
  });

  it('one that fails to stop is logged, and the others still stop', async () => {
    const events: string[] = [];
    const logged: string[] = [];
    const stop = await startListeners(
      contextWith([recording('a', events), recording('b', events, 'stop')], logged),
    );
    await stop();
    expect(events).toEqual(['start a', 'start b', 'stop b', 'stop a']);
    expect(logged).toEqual(['listener did not stop cleanly']);
  });
});

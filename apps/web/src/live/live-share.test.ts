import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SseMessage } from '../lib/sse.ts';
import { type LiveStatus, type StreamCallbacks, shareLive } from './live-share.ts';

/** Web Locks as a browser grants them: one holder per name, the next waiting request after it. */
function fakeLocks() {
  let held = false;
  const queue: (() => void)[] = [];
  return {
    request(_name: string, opts: { signal?: AbortSignal }, cb: () => Promise<void>) {
      return new Promise<void>((resolve, reject) => {
        const run = () => {
          held = true;
          cb()
            .then(resolve, reject)
            .finally(() => {
              held = false;
              queue.shift()?.();
            });
        };
        opts.signal?.addEventListener('abort', () => {
          const i = queue.indexOf(run);
          if (i < 0) return;
          queue.splice(i, 1);
          reject(new DOMException('aborted', 'AbortError'));
        });
        if (held) queue.push(run);
        else run();
      });
    },
  };
}

/** BroadcastChannel as a browser has it: a message reaches every other open channel of the name, later. */
class FakeChannel {
  static open = new Set<FakeChannel>();
  onmessage: ((e: { data: unknown }) => void) | null = null;
  constructor(readonly name: string) {
    FakeChannel.open.add(this);
  }
  postMessage(data: unknown) {
    const copy = structuredClone(data);
    for (const c of FakeChannel.open)
      if (c !== this && c.name === this.name)
        setTimeout(() => FakeChannel.open.has(c) && c.onmessage?.({ data: copy }));
  }
  close() {
    FakeChannel.open.delete(this);
  }
}

/** A tab: what shareLive told it, and the stream it follows while it leads. */
function tab(name = 'live-test') {
  const abort = new AbortController();
  const seen = { statuses: [] as LiveStatus[], messages: [] as SseMessage[], opens: [] as boolean[] };
  let stream: StreamCallbacks | undefined;
  shareLive({
    name,
    signal: abort.signal,
    follow: (callbacks, signal) =>
      new Promise<void>((done) => {
        stream = callbacks;
        signal.addEventListener('abort', () => done());
      }),
    onStatus: (s) => seen.statuses.push(s),
    onMessage: (m) => seen.messages.push(m),
    onOpen: (again) => seen.opens.push(again),
  });
  return { seen, close: () => abort.abort(), stream: () => stream };
}

beforeEach(() => {
  vi.stubGlobal('BroadcastChannel', FakeChannel);
  Object.defineProperty(navigator, 'locks', { value: fakeLocks(), configurable: true });
});
afterEach(() => {
  Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true });
});

describe('shareLive', () => {
  it('one tab follows the stream; the others get its state, events and reconnections; another takes over when it closes', async () => {
    const a = tab();
    const b = tab();
    expect(a.stream()).toBeDefined();
    expect(b.stream()).toBeUndefined();

    a.stream()!.onOpen();
    // (The answer to its hello may repeat the state: a repeat changes nothing.)
    await vi.waitFor(() => expect(b.seen.statuses.at(-1)).toBe('live'));
    expect(a.seen.statuses).toEqual(['live']);
    expect(b.seen.opens).toEqual([false]);

    a.stream()!.onMessage({ event: 'balance', data: '{"balance":3}' });
    await vi.waitFor(() => expect(b.seen.messages).toEqual([{ event: 'balance', data: '{"balance":3}' }]));
    expect(a.seen.messages).toHaveLength(1);

    // A tab opened now asks the leader for the state.
    const c = tab();
    await vi.waitFor(() => expect(c.seen.statuses.at(-1)).toBe('live'));

    a.stream()!.onDown();
    await vi.waitFor(() => expect(b.seen.statuses.at(-1)).toBe('down'));
    await vi.waitFor(() => expect(c.seen.statuses.at(-1)).toBe('down'));
    a.stream()!.onOpen();
    await vi.waitFor(() => expect(b.seen.opens).toEqual([false, true]));

    a.close();
    await vi.waitFor(() => expect(b.stream()).toBeDefined());
    // The new leader may have missed events between the two streams: its first open says so.
    b.stream()!.onOpen();
    expect(b.seen.opens.at(-1)).toBe(true);
    await vi.waitFor(() => expect(c.seen.opens.at(-1)).toBe(true));
    b.close();
    c.close();
  });
});

describe('shareLive without Web Locks (a plain-HTTP site)', () => {
  it('elects one leader with a lease in localStorage; another tab takes over when it closes', async () => {
    Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true });
    const a = tab('lease-test');
    await vi.waitFor(() => expect(a.stream()).toBeDefined());
    const b = tab('lease-test');
    a.stream()!.onOpen();
    await vi.waitFor(() => expect(b.seen.statuses.at(-1)).toBe('live'));
    // b found a's lease fresh: it follows, even after a renewal or two.
    await new Promise((r) => setTimeout(r, 1500));
    expect(b.stream()).toBeUndefined();

    a.close();
    await vi.waitFor(() => expect(b.stream()).toBeDefined(), { timeout: 4000 });
    b.close();
  });
});

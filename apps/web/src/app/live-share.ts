import type { SseMessage } from '../lib/sse.ts';

/** The live-updates stream: 'live' while connected, 'down' while reconnecting after a loss. */
export type LiveStatus = 'connecting' | 'live' | 'down';

/** What the stream tells its follower (lib/sse.ts followSse's callbacks). */
export interface StreamCallbacks {
  onOpen: () => void;
  onDown: () => void;
  onMessage: (m: SseMessage) => void;
}

/** What the leader tab tells the others over the BroadcastChannel. */
type Wire =
  | { t: 'hello' }
  | { t: 'status'; status: LiveStatus }
  | { t: 'open'; again: boolean }
  | { t: 'event'; event: string; data: string };

/**
 * One live stream per browser, shared by its tabs. A browser opens at most six connections to a host
 * over HTTP/1.1, and a stream holds one for good: with a stream per tab, a seventh tab never loaded.
 * The tabs elect a leader with the Web Locks API (the lock `name`; the next waiting tab gets it when
 * the leader closes or signs out); the leader follows the stream (`follow`) and passes its events,
 * its state and its (re)connections to the others over a BroadcastChannel of the same name. Every
 * tab, the leader included, gets the same calls: `onMessage` per event, `onStatus` per state change,
 * `onOpen(again)` per connection (`again`: events may have been missed, as after a reconnection or a
 * change of leader). Without Web Locks or BroadcastChannel (an old browser) each tab follows its own.
 */
export function shareLive(opts: {
  name: string;
  follow: (callbacks: StreamCallbacks, signal: AbortSignal) => Promise<void>;
  onMessage: (m: SseMessage) => void;
  onStatus: (status: LiveStatus) => void;
  onOpen: (again: boolean) => void;
  signal: AbortSignal;
}): void {
  const { signal } = opts;
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks || typeof BroadcastChannel === 'undefined') {
    let opens = 0;
    void opts.follow(
      {
        onOpen: () => {
          opens += 1;
          opts.onStatus('live');
          opts.onOpen(opens > 1);
        },
        onDown: () => opts.onStatus('down'),
        onMessage: opts.onMessage,
      },
      signal,
    );
    return;
  }

  const channel = new BroadcastChannel(opts.name);
  let leading = false;
  /** A leader spoke before this tab took over: the gap between the two streams may hide events. */
  let followed = false;
  let status: LiveStatus = 'connecting';
  const setStatus = (s: LiveStatus) => {
    status = s;
    opts.onStatus(s);
    if (leading) post({ t: 'status', status: s });
  };
  const post = (m: Wire) => {
    if (!signal.aborted) channel.postMessage(m);
  };

  channel.onmessage = ({ data }: MessageEvent<Wire>) => {
    if (data.t === 'hello') {
      // A new tab asks for the state: only the leader answers.
      if (leading) post({ t: 'status', status });
      return;
    }
    if (leading) return;
    followed = true;
    if (data.t === 'event') opts.onMessage({ event: data.event, data: data.data });
    else if (data.t === 'status') {
      status = data.status;
      opts.onStatus(data.status);
    } else if (data.t === 'open') opts.onOpen(data.again);
  };
  post({ t: 'hello' });

  locks
    .request(opts.name, { signal }, async () => {
      leading = true;
      let opens = 0;
      try {
        await opts.follow(
          {
            onOpen: () => {
              opens += 1;
              const again = opens > 1 || followed;
              setStatus('live');
              opts.onOpen(again);
              post({ t: 'open', again });
            },
            onDown: () => setStatus('down'),
            onMessage: (m) => {
              opts.onMessage(m);
              post({ t: 'event', event: m.event, data: m.data });
            },
          },
          signal,
        );
      } finally {
        leading = false;
      }
    })
    // Aborted while waiting for the lock: this tab's shell is gone.
    .catch(() => {});
  signal.addEventListener('abort', () => channel.close(), { once: true });
}

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
 * change of leader). Where Web Locks are missing (a plain-HTTP site is not a secure context) a lease
 * in localStorage elects the leader; without BroadcastChannel (an old browser) each tab follows its own.
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
  if (typeof BroadcastChannel === 'undefined') {
    ownStream(opts);
    return;
  }

  const channel = new BroadcastChannel(opts.name);
  let leading = false;
  /** A leader spoke before this tab took over: the gap between the two streams may hide events. */
  let followed = false;
  let status: LiveStatus = 'connecting';
  const post = (m: Wire) => {
    if (!signal.aborted) channel.postMessage(m);
  };
  const setStatus = (s: LiveStatus) => {
    status = s;
    opts.onStatus(s);
    if (leading) post({ t: 'status', status: s });
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

  elect(opts.name, signal, async (leadership) => {
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
        leadership,
      );
    } finally {
      leading = false;
      followed = true;
    }
  });
  signal.addEventListener('abort', () => channel.close(), { once: true });
}

/** This tab follows its own stream (no BroadcastChannel to share it). */
function ownStream(opts: Parameters<typeof shareLive>[0]) {
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
    opts.signal,
  );
}

/**
 * Runs `lead` in one tab of the browser at a time, until it returns or its signal aborts; another tab
 * runs it when that tab closes (or `signal` aborts). With the Web Locks API where the page is a secure
 * context (HTTPS, localhost), else with a lease in localStorage (a site served over plain HTTP).
 */
function elect(name: string, signal: AbortSignal, lead: (leadership: AbortSignal) => Promise<void>): void {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (locks) {
    // The lock is held while `lead` runs; a request still waiting ends when `signal` aborts.
    locks.request(name, { signal }, () => lead(signal)).catch(() => {});
    return;
  }
  leaseElect(name, signal, lead);
}

/** How often the leader renews its lease, and how old a lease is when another tab may take it. */
const RENEW_MS = 1000;
const LEASE_MS = 3500;
/** How long a tab that found the lease old waits for the leader to answer before taking it. */
const PONG_MS = 500;

/**
 * Leader election without Web Locks: the leader writes {id, at} to localStorage every second; a tab
 * that finds the lease older than LEASE_MS (or removed: a leader closing removes it) asks the leader
 * over a BroadcastChannel and takes the lease if nobody answers (a hidden leader's timers may be
 * slowed to one a minute; its messages are not). Two tabs taking it at once both lead for at most a
 * second: the next renewal finds the other's id and the one whose write was overwritten steps down.
 */
function leaseElect(name: string, signal: AbortSignal, lead: (leadership: AbortSignal) => Promise<void>) {
  const key = `${name}.leader`;
  const me = `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  const channel = new BroadcastChannel(`${name}.election`);
  let leadership: AbortController | undefined;
  let asking: ReturnType<typeof setTimeout> | undefined;
  /** `lead` returned by itself (signed out): this tab stops competing, as it would for a lock. */
  let done = false;
  const read = (): { id: string; at: number } | null => {
    try {
      return JSON.parse(localStorage.getItem(key) ?? 'null');
    } catch {
      return null;
    }
  };
  const renew = () => {
    try {
      localStorage.setItem(key, JSON.stringify({ id: me, at: Date.now() }));
    } catch {
      // Storage unavailable: lead alone.
    }
  };
  const release = () => {
    try {
      if (read()?.id === me) localStorage.removeItem(key);
    } catch {
      // Storage unavailable.
    }
  };
  const take = () => {
    asking = undefined;
    if (signal.aborted || done || leadership) return;
    renew();
    // Other tabs may write theirs at the same moment (they all saw the leader go): the last writer leads.
    asking = setTimeout(confirm, PONG_MS);
  };
  const confirm = (now = false) => {
    asking = undefined;
    if (signal.aborted || done || leadership || (!now && read()?.id !== me)) return;
    const mine = new AbortController();
    leadership = mine;
    void lead(mine.signal).finally(() => {
      if (leadership !== mine) return;
      leadership = undefined;
      if (!signal.aborted) done = true;
      release();
    });
  };
  const tick = (first = false) => {
    if (signal.aborted || done) return;
    const lease = read();
    if (first && !lease) {
      // No tab leads (the first tab of the browser): lead at once; a tab opened at the very same
      // moment steps down at the next renewal.
      renew();
      confirm(true);
      return;
    }
    if (leadership) {
      if (lease && lease.id !== me && Date.now() - lease.at <= LEASE_MS) {
        leadership.abort();
        leadership = undefined;
      } else renew();
    } else if ((!lease || Date.now() - lease.at > LEASE_MS) && !asking) {
      if (!lease) take();
      else {
        channel.postMessage('ping');
        asking = setTimeout(take, PONG_MS);
      }
    }
  };
  channel.onmessage = ({ data }: MessageEvent<string>) => {
    if (data === 'ping' && leadership) {
      renew();
      channel.postMessage('pong');
    } else if (data === 'pong') {
      clearTimeout(asking);
      asking = undefined;
    }
  };
  const onStorage = (e: StorageEvent) => {
    if (e.key === key && !e.newValue) tick();
  };
  const timer = setInterval(() => tick(), RENEW_MS);
  window.addEventListener('storage', onStorage);
  window.addEventListener('pagehide', release);
  signal.addEventListener(
    'abort',
    () => {
      clearInterval(timer);
      clearTimeout(asking);
      channel.close();
      window.removeEventListener('storage', onStorage);
      window.removeEventListener('pagehide', release);
      leadership?.abort();
      release();
    },
    { once: true },
  );
  tick(true);
}

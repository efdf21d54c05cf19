import pg from 'pg';

// Which server processes listen on a NOTIFY channel, so a process that is the only one hands its
// notifications to its own listeners after the commit instead of sending a NOTIFY it would read back.

/**
 * A notification is a NOTIFY only when another process listens on its channel; otherwise it returns
 * no row and this process hands it to its own listeners after the commit. A NOTIFY would cost
 * PostgreSQL a write to its notification queue and a wake-up of the listening backend, and this
 * process a wake-up to read it back: with the rest of this change about 0.1 ms of PostgreSQL's CPU per SMS
 * (bench/RESULTS.md). Reading `db_listeners` takes a lock that a process registering as a listener
 * waits for (REGISTER_LISTENER), so no notification committed after a registration misses that process.
 */
export const NOTIFY_IF_HEARD_ELSEWHERE = `SELECT pg_notify($1, $2)
  FROM (SELECT FROM db_listeners WHERE channel = $1 AND pid <> $3 LIMIT 1) AS another_process`;

/**
 * Registers the listening connection for channel. The lock waits for every transaction that has
 * read the listeners (and so may have chosen to keep its notification in its own process) to end,
 * and holds new ones until this commits; the connection LISTENs already. Rows of listening
 * connections that are gone are removed on the way.
 */
const REGISTER_LISTENER = [
  'BEGIN',
  "SET LOCAL lock_timeout = '2s'",
  'LOCK TABLE db_listeners IN ACCESS EXCLUSIVE MODE',
  `INSERT INTO db_listeners (channel, pid, backend_start)
     SELECT $1, pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()
     ON CONFLICT (channel, pid) DO UPDATE SET backend_start = EXCLUDED.backend_start`,
  'COMMIT',
];

/** Listening connections that are gone (a process that crashed; a connection that dropped). */
const FORGET_GONE_LISTENERS = `DELETE FROM db_listeners l WHERE NOT EXISTS (
    SELECT FROM pg_stat_activity a
     WHERE a.pid = l.pid AND (a.backend_start = l.backend_start OR a.backend_start IS NULL OR l.backend_start IS NULL))`;

/** While other processes listen, how often their rows are checked for ones that are gone. */
const GONE_LISTENERS_CHECK_MS = 60_000;

/** A listener of a channel: the notification's text, and its value when this process sent it with one. */
export type Listener = (payload: string, value?: unknown) => void;

/**
 * This process's listeners on a PostgreSQL database: its one listening connection, registered in
 * db_listeners for each channel, and the reading of a notification's answer (`sentAsNotify`).
 */
export function listenerRegistry(url: string, pool: pg.Pool) {
  const listeners = new Map<string, Set<Listener>>();
  /** Per channel: LISTEN sent and the connection registered (every `listen` call waits for it). */
  const subscribed = new Map<string, Promise<void>>();
  let listenClient: Promise<pg.Client> | undefined;
  /** The backend of this process's listening connection, once registered for each channel. */
  const registeredAs = new Map<string, number>();
  let goneCheckedAt = 0;

  /** Hands a notification to this process's listeners of its channel (`value`: sent by this process). */
  function hear(channel: string, payload: string, value?: unknown) {
    for (const fn of listeners.get(channel) ?? []) {
      try {
        fn(payload, value);
      } catch (err) {
        // A listener's failure is its own, not the committed transaction's (as from a NOTIFY).
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  /** The notification's statement; `sentAsNotify` reads its answer. */
  const notifyArgs = (channel: string, payload: string) => [channel, payload, registeredAs.get(channel) ?? 0];
  function sentAsNotify(result: pg.QueryResult): boolean {
    if (result.rows.length === 0) return false;
    // Another process listens. One that crashed stays in db_listeners (and NOTIFYs go on for
    // nothing) until a registration or this check removes it.
    if (Date.now() - goneCheckedAt > GONE_LISTENERS_CHECK_MS) {
      goneCheckedAt = Date.now();
      pool.query(FORGET_GONE_LISTENERS).catch(() => {});
    }
    return true;
  }

  /** The one listening connection (made once, however many channels ask for it at once). */
  function ensureListenClient(): Promise<pg.Client> {
    listenClient ??= (async () => {
      const client = new pg.Client({ connectionString: url });
      client.on('notification', (n) => hear(n.channel, n.payload ?? ''));
      client.on('error', () => {
        // Reconnect and re-subscribe; events in the gap are covered by the clients' polling fallback.
        listenClient = undefined;
        registeredAs.clear();
        setTimeout(() => void resubscribe(), 1000).unref();
      });
      await client.connect();
      return client;
    })();
    const made = listenClient;
    made.catch(() => {
      if (listenClient === made) listenClient = undefined;
    });
    return made;
  }
  /** LISTENs on channel and registers the connection in db_listeners (see REGISTER_LISTENER). */
  async function subscribe(client: pg.Client, channel: string) {
    await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(FORGET_GONE_LISTENERS);
        for (const sql of REGISTER_LISTENER)
          await client.query(sql, sql.includes('$1') ? [channel] : undefined);
        break;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        // 55P03: a long transaction that notifies held the lock; try again rather than stall others.
        if ((err as { code?: string }).code !== '55P03' || attempt >= 10) throw err;
      }
    }
    registeredAs.set(channel, (client as unknown as { processID: number }).processID);
  }
  async function resubscribe() {
    try {
      const c = await ensureListenClient();
      for (const ch of subscribed.keys()) await subscribe(c, ch);
    } catch {
      setTimeout(() => void resubscribe(), 2000).unref();
    }
  }

  async function listen(channel: string, onPayload: Listener) {
    let ready = subscribed.get(channel);
    if (!ready) {
      ready = ensureListenClient().then((client) => subscribe(client, channel));
      subscribed.set(channel, ready);
      ready.catch(() => subscribed.delete(channel));
    }
    await ready;
    let set = listeners.get(channel);
    if (!set) {
      set = new Set();
      listeners.set(channel, set);
    }
    set.add(onPayload);
    return async () => {
      set.delete(onPayload);
    };
  }

  return {
    hear,
    notifyArgs,
    sentAsNotify,
    listen,
    async close() {
      const client = await listenClient?.catch(() => undefined);
      if (!client) return;
      // Others stop sending this process NOTIFYs it would no longer read.
      await client.query('DELETE FROM db_listeners WHERE pid = pg_backend_pid()').catch(() => {});
      await client.end().catch(() => {});
    },
  };
}

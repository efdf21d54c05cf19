import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

// numeric and int8 arrive as strings from node-postgres; we cast in SQL where a number is wanted.

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * A write whose result nobody reads (an event's NOTIFY, a queued delivery, a flag, a row whose new
   * values the caller already knows): inside a PostgreSQL transaction it travels with the next
   * statement the transaction sends, or with the COMMIT, so it costs no round trip of its own and
   * every later statement sees it; anywhere else it runs at once. It fails the transaction (or the
   * savepoint it was made in) exactly as the same query would.
   */
  defer(sql: string, params?: unknown[]): Promise<void>;
  /**
   * Runs fn in a savepoint of the current transaction: when fn throws, its writes (deferred ones
   * included) are undone and the error is rethrown, and the transaction goes on. Outside a
   * transaction fn just runs.
   */
  savepoint<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * `savepoint` on a transaction's connection. `deferred` (if any) holds the writes not yet sent: on
 * failure, those fn deferred are dropped (the ones already sent are undone by the rollback).
 */
function savepointOn(run: (sql: string) => Promise<unknown>, deferred?: unknown[]) {
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    await run('SAVEPOINT sd_savepoint'); // sends what was deferred before it
    const mark = deferred?.length ?? 0;
    try {
      const result = await fn();
      await run('RELEASE SAVEPOINT sd_savepoint');
      return result;
    } catch (err) {
      if (deferred) deferred.length = mark;
      await run('ROLLBACK TO SAVEPOINT sd_savepoint');
      await run('RELEASE SAVEPOINT sd_savepoint');
      throw err;
    }
  };
}

/** Outside a transaction there is nothing to roll back to. */
const noSavepoint = <T>(fn: () => Promise<T>): Promise<T> => fn();

export interface Session extends Queryable {
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'pg';
  /** Runs fn in one transaction; rolls back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements at once (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs fn on one dedicated connection (session-level locks such as the migration lock must be
   * taken and released on the same connection as the work they guard).
   */
  session<T>(fn: (c: Session) => Promise<T>): Promise<T>;
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A driver's error is made where the database's answer was read; this gives it the stack of the code
 * that ran the statement (V8's async stack), which is what a log of it needs.
 */
async function withCallerStack<T>(answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (err) {
    if (err instanceof Error) Error.captureStackTrace(err);
    throw err;
  }
}

export async function openPglite(dataDir?: string): Promise<Db> {
  const pgl = dataDir ? await PGlite.create(dataDir) : await PGlite.create();
  // In-process: a round trip costs nothing here, so deferred writes run at once.
  const asQueryable = (q: Pick<PGlite, 'query'>, inTx = false): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      return (await withCallerStack(q.query<T>(sql, params))).rows;
    },
    async defer(sql: string, params?: unknown[]) {
      await withCallerStack(q.query(sql, params));
    },
    savepoint: inTx ? savepointOn((sql) => q.query(sql)) : noSavepoint,
  });
  return {
    kind: 'pglite',
    ...asQueryable(pgl),
    tx: (fn) => pgl.transaction((tx) => fn(asQueryable(tx, true))),
    exec: async (sql) => {
      await pgl.exec(sql);
    },
    // PGlite is one connection: every call is already on the same session.
    session: (fn) =>
      fn({
        ...asQueryable(pgl),
        exec: async (sql) => {
          await pgl.exec(sql);
        },
      }),
    listen: async (channel, onPayload) => pgl.listen(channel, onPayload),
    notify: async (channel, payload) => {
      await pgl.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    close: () => pgl.close(),
  };
}

/** At most this many distinct statement texts are prepared (named) per process. */
const PREPARED_MAX = 2000;
/** Statement name by text: a hash of the text (a pure memo, the same for every database). */
const preparedNames = new Map<string, string>();

/**
 * Parameterised statements are prepared once per connection, named by a hash of their text (as
 * pgx and JDBC do): PostgreSQL parses each once and, after five runs, keeps a generic plan when it
 * is no costlier than the custom ones. On the SMS path (13 statements per SMS) that took
 * PostgreSQL's CPU from 14.5–15.0 s to 8.4–8.6 s in the same benchmark run (bench/RESULTS.md).
 * Statements without parameters (BEGIN, SAVEPOINT, several statements in one text) stay unnamed;
 * past PREPARED_MAX distinct texts (generated SQL) new ones stay unnamed too, so the
 * per-connection statement caches stay bounded.
 */
function preparedName(text: string, values: unknown[] | undefined): string | undefined {
  if (!values?.length) return undefined;
  let name = preparedNames.get(text);
  if (name === undefined) {
    if (preparedNames.size >= PREPARED_MAX) return undefined;
    name = `sd_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    preparedNames.set(text, name);
  }
  return name;
}

/**
 * A statement as node-postgres's own query object. Handed a plain config object instead,
 * node-postgres copies it property by property for every statement, which showed in the server's
 * CPU profile (1–8 µs of 20–30 per statement, bench/RESULTS.md). Without a callback, the pool's
 * query attaches its own and answers with a promise.
 */
function statement(
  text: string,
  values?: unknown[],
  callback?: (err: Error | undefined, res: pg.QueryResult) => void,
): pg.Query {
  const query = new pg.Query(text, values, callback);
  const name = preparedName(text, values);
  if (name !== undefined) (query as pg.Query & { name?: string }).name = name;
  return query;
}

/**
 * Runs a statement on a connection of its own (a transaction's, a session's). Issued at once (a
 * caller's cork holds it for the same write).
 */
function runOn(client: pg.ClientBase, text: string, values?: unknown[]): Promise<pg.QueryResult> {
  return withCallerStack(
    new Promise((resolve, reject) => {
      client.query(statement(text, values, (err, res) => (err ? reject(err) : resolve(res))));
    }),
  );
}

/** Runs a statement on any pooled connection (the pool takes it and gives it back). */
function runOnPool(pool: pg.Pool, text: string, values?: unknown[]): Promise<pg.QueryResult> {
  // With a query object, pg-pool's types give back the object, but it answers with a promise.
  return pool.query(statement(text, values)) as unknown as Promise<pg.QueryResult>;
}

/** A write held for the transaction's next statement or its COMMIT. */
interface Deferred {
  sql: string;
  params: unknown[] | undefined;
}

/**
 * Holds a pipelined connection's writes until the end of this turn of the event loop, so the
 * statements issued together (a BEGIN and the first statement, a read issued beside a write, the
 * deferred writes and the COMMIT) leave in one socket write: one wake-up for PostgreSQL instead of
 * one per statement. Node's HTTP responses are written the same way.
 */
function holdWritesForTick(client: pg.PoolClient): void {
  const { stream } = (client as unknown as { connection: { stream: import('node:net').Socket } }).connection;
  if (stream.writableCorked > 0) return;
  stream.cork();
  process.nextTick(() => stream.uncork());
}

export async function openPostgres(url: string, poolSize = 10): Promise<Db> {
  // A database that does not answer fails requests after 5 s (503) instead of hanging them.
  // Pipeline mode: a statement is written as soon as it is issued, without waiting for the answer
  // to the one before (only transactions issue several at once: see tx).
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5000,
    pipeline: true,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let listenClient: pg.Client | undefined;

  async function ensureListenClient(): Promise<pg.Client> {
    if (listenClient) return listenClient;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    client.on('notification', (n) => {
      for (const fn of listeners.get(n.channel) ?? []) fn(n.payload ?? '');
    });
    client.on('error', () => {
      // Reconnect and re-subscribe; events in the gap are covered by the clients' polling fallback.
      listenClient = undefined;
      setTimeout(() => void resubscribe(), 1000).unref();
    });
    listenClient = client;
    return client;
  }
  async function resubscribe() {
    try {
      const c = await ensureListenClient();
      for (const ch of listeners.keys()) await c.query(`LISTEN ${pg.escapeIdentifier(ch)}`);
    } catch {
      setTimeout(() => void resubscribe(), 2000).unref();
    }
  }

  return {
    kind: 'pg',
    async query<T>(sql: string, params?: unknown[]) {
      return (await runOnPool(pool, sql, params)).rows as T[];
    },
    async defer(sql, params) {
      await runOnPool(pool, sql, params);
    },
    savepoint: noSavepoint,
    async tx(fn) {
      const client = await pool.connect();
      // Nothing goes out until the first statement, which carries the BEGIN in the same write. A
      // deferred write goes out with the next statement (in the same write, before it) or with the
      // COMMIT: a transaction of one statement and some deferred writes is two round trips.
      let begun = false;
      const deferred: Deferred[] = [];
      /** Issues the deferred writes held so far and the BEGIN if not yet sent; their answers. */
      const sendHeld = (): Promise<pg.QueryResult>[] => {
        holdWritesForTick(client);
        const sent = begun ? [] : [runOn(client, 'BEGIN')];
        begun = true;
        for (const d of deferred.splice(0)) sent.push(runOn(client, d.sql, d.params));
        return sent;
      };
      const run = async (sql: string, params?: unknown[]) => {
        const held = sendHeld();
        const result = runOn(client, sql, params);
        if (held.length === 0) return result;
        // Answers come in order: a held statement that failed is the cause (the ones after it met an
        // aborted transaction), and Promise.all rejects with the first failure to arrive.
        return (await Promise.all([...held, result])).at(-1)!;
      };
      try {
        const result = await fn({
          query: async <T>(sql: string, params?: unknown[]) => (await run(sql, params)).rows as T[],
          defer: async (sql, params) => {
            deferred.push({ sql, params });
          },
          savepoint: savepointOn((sql) => run(sql), deferred),
        });
        if (!begun && deferred.length === 0) return result; // nothing was written
        const sent = [...sendHeld(), runOn(client, 'COMMIT')];
        const settled = await Promise.allSettled(sent);
        // The first failure is the cause (the statements after it met an aborted transaction, and
        // its COMMIT rolled back).
        const failed = settled.find((s) => s.status === 'rejected');
        if (failed) throw failed.reason;
        const commit = settled.at(-1) as PromiseFulfilledResult<pg.QueryResult>;
        if (commit.value.command !== 'COMMIT')
          throw new Error('The transaction was rolled back at its commit.');
        return result;
      } catch (err) {
        if (begun) await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async session(fn) {
      const client = await pool.connect();
      try {
        return await fn({
          query: async <T>(sql: string, params?: unknown[]) => (await runOn(client, sql, params)).rows as T[],
          defer: async (sql, params) => {
            await runOn(client, sql, params);
          },
          savepoint: noSavepoint,
          exec: async (sql: string) => {
            await client.query(sql);
          },
        });
      } finally {
        client.release();
      }
    },
    async listen(channel, onPayload) {
      const client = await ensureListenClient();
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
      };
    },
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      await listenClient?.end().catch(() => {});
      await pool.end();
    },
  };
}

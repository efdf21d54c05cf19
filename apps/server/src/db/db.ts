import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { sha256 } from '../crypto.ts';
import { type Listener, listenerRegistry, NOTIFY_IF_HEARD_ELSEWHERE } from './listeners.ts';
import { ShapedQuery } from './shaped-query.ts';
import { type Answer, batchStatement, StatementBatch } from './statement-batch.ts';

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
   * Tells `channel`'s listeners (`Db.listen`) in every server process, once the transaction commits
   * (nothing if it rolls back; outside a transaction at once). Like a deferred write it costs no round
   * trip of its own, and listeners hear a process's notifications in the order it committed them.
   * `value`, if given, is what the payload says as an object: this process's own listeners are handed
   * it beside the payload (no parse), so they must not change it; other processes get the text only.
   */
  notify(channel: string, payload: string, value?: unknown): Promise<void>;
  /**
   * Runs fn in a savepoint of the current transaction: when fn throws, its writes (deferred ones
   * included) are undone and the error is rethrown, and the transaction goes on. Outside a
   * transaction fn just runs.
   */
  savepoint<T>(fn: () => Promise<T>): Promise<T>;
}

/** What only reads: any Queryable, or `Db.heavy`. */
export type Reader = Pick<Queryable, 'query'>;

/**
 * `savepoint` on a transaction's connection. `held` (if any) lists what the transaction keeps for
 * later: its writes not yet sent and its notifications for this process's listeners. On failure,
 * what fn added to them is dropped (writes already sent are undone by the rollback).
 */
function savepointOn(run: (sql: string) => Promise<unknown>, held: unknown[][] = []) {
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    await run('SAVEPOINT sd_savepoint'); // sends what was deferred before it
    const marks = held.map((list) => list.length);
    try {
      const result = await fn();
      await run('RELEASE SAVEPOINT sd_savepoint');
      return result;
    } catch (err) {
      held.forEach((list, i) => {
        list.length = Math.min(list.length, marks[i]!);
      });
      await run('ROLLBACK TO SAVEPOINT sd_savepoint');
      // Answers of writes sent inside fn are in now: their notifications kept for here go too.
      held.forEach((list, i) => {
        list.length = Math.min(list.length, marks[i]!);
      });
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
  /**
   * For reads that may take long and that anyone can cause (the catalogue's availability, admin
   * counts): on PostgreSQL a small pool of its own, so such reads wait for each other instead of
   * taking the connections device pushes, rentals and sign-ins need (docs/architecture.md, "Two
   * pools"). Reads only; PGlite has one connection and answers them as `query` does.
   */
  readonly heavy: Reader;
  /** Runs fn in one transaction; rolls back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements at once (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs fn on one dedicated connection (session-level locks such as the migration lock must be
   * taken and released on the same connection as the work they guard).
   */
  session<T>(fn: (c: Session) => Promise<T>): Promise<T>;
  /**
   * Calls onPayload with every notification on channel (`Queryable.notify`) from any server process
   * on this database, this one included, once it is committed; with its `value` when this process
   * sent it with one.
   */
  listen(channel: string, onPayload: Listener): Promise<() => Promise<void>>;
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
    // One process: PGlite hands NOTIFYs to its listeners itself, at the commit.
    async notify(channel: string, payload: string) {
      await withCallerStack(q.query('SELECT pg_notify($1, $2)', [channel, payload]));
    },
    savepoint: inTx ? savepointOn((sql) => q.query(sql)) : noSavepoint,
  });
  const plain = asQueryable(pgl);
  return {
    kind: 'pglite',
    ...plain,
    heavy: plain,
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
    name = `sd_${sha256(text).slice(0, 24)}`;
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
  const query = new ShapedQuery(text, values, callback);
  const name = preparedName(text, values);
  if (name !== undefined) (query as pg.Query & { name?: string }).name = name;
  return query;
}

/** Runs a statement at once on a connection of its own (a session's; a transaction's go by `statementIssuer`). */
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
  /** Called with its answer (a notification reads whether it went as a NOTIFY). */
  answered?: (result: pg.QueryResult) => void;
}

/**
 * Issues a transaction's statements: those issued in one turn of the event loop (a BEGIN and the
 * first statement, a read issued beside a write, the deferred writes and the COMMIT) leave at its
 * end in one socket write with one Sync (`StatementBatch`), so PostgreSQL wakes once for them and
 * answers them in one flush. `answered` sees a statement's answer before its caller does.
 */
function statementIssuer(client: pg.PoolClient) {
  let waiting: { statement: ReturnType<typeof batchStatement>; answer: Answer }[] = [];
  const send = () => {
    const batch = waiting;
    waiting = [];
    // A value node-postgres cannot convert fails the whole batch before anything is written.
    const unsendable = batch.find((b) => b.statement instanceof Error)?.statement as Error | undefined;
    if (unsendable) {
      for (const b of batch) b.answer(unsendable, undefined as unknown as pg.QueryResult);
      return;
    }
    client.query(
      new StatementBatch(batch.map((b) => b.statement as Exclude<typeof b.statement, Error>)) as never,
    );
  };
  return (text: string, values?: unknown[], answered?: (result: pg.QueryResult) => void) =>
    withCallerStack(
      new Promise<pg.QueryResult>((resolve, reject) => {
        const answer: Answer = (err, result) => {
          if (err) return reject(err);
          answered?.(result);
          resolve(result);
        };
        if (waiting.length === 0) process.nextTick(send);
        waiting.push({ statement: batchStatement(text, values, preparedName(text, values), answer), answer });
      }),
    );
}

/** Connections of the pool for heavy reads (`Db.heavy`) unless the caller says otherwise. */
export const HEAVY_POOL_SIZE = 2;

export async function openPostgres(url: string, poolSize = 10, heavyPoolSize = HEAVY_POOL_SIZE): Promise<Db> {
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
  // Heavy reads queue here (up to the same 5 s, then 503 for them alone), never in `pool`.
  const heavyPool = new pg.Pool({
    connectionString: url,
    max: heavyPoolSize,
    connectionTimeoutMillis: 5000,
    pipeline: true,
  });
  heavyPool.on('error', () => {});
  const registry = listenerRegistry(url, pool);
  /** How to end each session still open (`close` ends them). */
  const sessions = new Set<() => void>();
  /** `notify` outside a transaction: the statement at once, then this process's listeners if it is alone. */
  const notifyNow =
    (run: (sql: string, params: unknown[]) => Promise<pg.QueryResult>) =>
    async (channel: string, payload: string, value?: unknown) => {
      if (!registry.sentAsNotify(await run(NOTIFY_IF_HEARD_ELSEWHERE, registry.notifyArgs(channel, payload))))
        registry.hear(channel, payload, value);
    };

  return {
    kind: 'pg',
    async query<T>(sql: string, params?: unknown[]) {
      return (await runOnPool(pool, sql, params)).rows as T[];
    },
    heavy: {
      async query<T>(sql: string, params?: unknown[]) {
        return (await runOnPool(heavyPool, sql, params)).rows as T[];
      },
    },
    async defer(sql, params) {
      await runOnPool(pool, sql, params);
    },
    notify: notifyNow((sql, params) => runOnPool(pool, sql, params)),
    savepoint: noSavepoint,
    async tx(fn) {
      const client = await pool.connect();
      const issue = statementIssuer(client);
      // Nothing goes out until the first statement, which carries the BEGIN in the same write. A
      // deferred write goes out with the next statement (in the same write, before it) or with the
      // COMMIT: a transaction of one statement and some deferred writes is two round trips.
      let begun = false;
      const deferred: Deferred[] = [];
      /** Notifications for this process's listeners only, heard once the transaction commits. */
      const hereAfterCommit: [channel: string, payload: string, value: unknown][] = [];
      /** Issues the deferred writes held so far and the BEGIN if not yet sent; their answers. */
      const sendHeld = (): Promise<pg.QueryResult>[] => {
        const sent = begun ? [] : [issue('BEGIN')];
        begun = true;
        for (const d of deferred.splice(0)) sent.push(issue(d.sql, d.params, d.answered));
        return sent;
      };
      const run = async (sql: string, params?: unknown[]) => {
        const held = sendHeld();
        const result = issue(sql, params);
        if (held.length === 0) return result;
        // Answers come in order: a held statement that failed is the cause (the ones after it in the
        // same write were skipped and fail with its error), and Promise.all rejects with the first.
        return (await Promise.all([...held, result])).at(-1)!;
      };
      try {
        const result = await fn({
          query: async <T>(sql: string, params?: unknown[]) => (await run(sql, params)).rows as T[],
          defer: async (sql, params) => {
            deferred.push({ sql, params });
          },
          notify: async (channel, payload, value) => {
            deferred.push({
              sql: NOTIFY_IF_HEARD_ELSEWHERE,
              params: registry.notifyArgs(channel, payload),
              answered: (res) => {
                if (!registry.sentAsNotify(res)) hereAfterCommit.push([channel, payload, value]);
              },
            });
          },
          savepoint: savepointOn((sql) => run(sql), [deferred, hereAfterCommit]),
        });
        if (!begun && deferred.length === 0) return result; // nothing was written
        const sent = [...sendHeld(), issue('COMMIT')];
        const settled = await Promise.allSettled(sent);
        // The first failure is the cause (PostgreSQL skipped the statements after it, the COMMIT
        // too).
        const failed = settled.find((s) => s.status === 'rejected');
        if (failed) throw failed.reason;
        const commit = settled.at(-1) as PromiseFulfilledResult<pg.QueryResult>;
        if (commit.value.command !== 'COMMIT')
          throw new Error('The transaction was rolled back at its commit.');
        for (const [channel, payload, value] of hereAfterCommit) registry.hear(channel, payload, value);
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
      // A connection that drops while checked out would emit an error nobody listens to (the pool
      // listens only while it is idle) and end the process; it surfaces as the next query's error.
      const dropped = () => {};
      client.on('error', dropped);
      let released = false;
      const release = (err?: Error) => {
        if (released) return;
        released = true;
        client.release(err);
      };
      // Closing the database ends a session that is still open (a listener's lock holder): its
      // next statement fails, and the pool does not wait for it forever.
      const end = () => release(new Error('the database was closed'));
      sessions.add(end);
      try {
        return await fn({
          query: async <T>(sql: string, params?: unknown[]) => (await runOn(client, sql, params)).rows as T[],
          defer: async (sql, params) => {
            await runOn(client, sql, params);
          },
          // A session's statements commit one by one (it runs the migrations).
          notify: notifyNow((sql, params) => runOn(client, sql, params)),
          savepoint: noSavepoint,
          exec: async (sql: string) => {
            await client.query(sql);
          },
        });
      } finally {
        sessions.delete(end);
        client.removeListener('error', dropped);
        release();
      }
    },
    listen: (channel, onPayload) => registry.listen(channel, onPayload),
    async close() {
      for (const end of [...sessions]) end();
      await registry.close();
      await Promise.all([pool.end(), heavyPool.end()]);
    },
  };
}

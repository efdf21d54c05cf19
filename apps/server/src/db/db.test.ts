import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openTestDb, TEST_DB } from '../test/harness.ts';
import { openPostgres } from './db.ts';

describe('deferred writes', () => {
  it('are written in order and seen by every later statement of the transaction', async () => {
    const t = await openTestDb();
    try {
      await t.db.exec('CREATE TABLE deferred_t (n int, note text)');
      const seenInside = await t.db.tx(async (q) => {
        await q.defer('INSERT INTO deferred_t VALUES ($1, $2)', [1, "first's"]);
        await q.defer('UPDATE deferred_t SET note = note || $1 WHERE n = 1', ['+second']);
        await q.query('INSERT INTO deferred_t VALUES ($1, $2)', [2, 'at once']);
        const seen = await q.query<{ n: number; note: string }>('SELECT n, note FROM deferred_t ORDER BY n');
        await q.defer('UPDATE deferred_t SET note = note || $1 WHERE n = 2', ['+with the commit']);
        return seen;
      });
      // PostgreSQL sends them with the next statement (no round trip of their own); PGlite at once.
      expect(seenInside).toEqual([
        { n: 1, note: "first's+second" },
        { n: 2, note: 'at once' },
      ]);
      const rows = await t.db.query<{ n: number; note: string }>('SELECT n, note FROM deferred_t ORDER BY n');
      expect(rows).toEqual([
        { n: 1, note: "first's+second" },
        { n: 2, note: 'at once+with the commit' },
      ]);
    } finally {
      await t.drop();
    }
  });

  it('that fail fail the statement after them with their own error', async () => {
    const t = await openTestDb();
    try {
      await t.db.exec('CREATE TABLE deferred_e (n int PRIMARY KEY)');
      const err = await t.db
        .tx(async (q) => {
          await q.defer('INSERT INTO deferred_e VALUES ($1)', [1]);
          await q.defer('INSERT INTO deferred_e VALUES ($1)', [1]);
          await q.query('SELECT count(*) FROM deferred_e');
        })
        .then(
          () => new Error('it committed'),
          (e: unknown) => e as Error,
        );
      // The cause, not PostgreSQL's "current transaction is aborted" for the statement after it.
      expect(err.message).toMatch(/duplicate key/);
      expect(await t.db.query('SELECT n FROM deferred_e')).toEqual([]);
    } finally {
      await t.drop();
    }
  });

  it('that fail roll back the whole transaction, the immediate writes too', async () => {
    const t = await openTestDb();
    try {
      await t.db.exec('CREATE TABLE deferred_f (n int PRIMARY KEY)');
      await expect(
        t.db.tx(async (q) => {
          await q.query('INSERT INTO deferred_f VALUES ($1)', [1]);
          await q.defer('INSERT INTO deferred_f VALUES ($1)', [2]);
          await q.defer('INSERT INTO deferred_f VALUES ($1)', [1]);
        }),
      ).rejects.toThrow(/duplicate key/);
      expect(await t.db.query('SELECT n FROM deferred_f')).toEqual([]);
      // The connection is usable again.
      await t.db.tx((q) => q.defer('INSERT INTO deferred_f VALUES ($1)', [3]));
      expect(await t.db.query('SELECT n FROM deferred_f')).toEqual([{ n: 3 }]);
    } finally {
      await t.drop();
    }
  });

  it('are dropped when the transaction throws', async () => {
    const t = await openTestDb();
    try {
      await t.db.exec('CREATE TABLE deferred_r (n int)');
      await expect(
        t.db.tx(async (q) => {
          await q.defer('INSERT INTO deferred_r VALUES ($1)', [1]);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await t.db.query('SELECT n FROM deferred_r')).toEqual([]);
    } finally {
      await t.drop();
    }
  });
});

describe('savepoints', () => {
  it('undo what failed inside them, deferred writes included, and keep the rest', async () => {
    const t = await openTestDb();
    try {
      await t.db.exec('CREATE TABLE sp_t (n int)');
      const outcome = await t.db.tx(async (q) => {
        await q.defer('INSERT INTO sp_t VALUES ($1)', [1]);
        const failed = await q
          .savepoint(async () => {
            await q.query('INSERT INTO sp_t VALUES ($1)', [2]);
            await q.defer('INSERT INTO sp_t VALUES ($1)', [3]);
            await q.query('SELECT 1'); // 3 is sent with it: undone by the rollback to the savepoint
            await q.defer('INSERT INTO sp_t VALUES ($1)', [5]); // not sent: dropped
            throw new Error('consumer failed');
          })
          .catch((err: Error) => err.message);
        const kept = await q.savepoint(async () => {
          await q.defer('INSERT INTO sp_t VALUES ($1)', [4]);
          return 'kept';
        });
        return [failed, kept];
      });
      expect(outcome).toEqual(['consumer failed', 'kept']);
      const rows = await t.db.query<{ n: number }>('SELECT n FROM sp_t ORDER BY n');
      expect(rows.map((r) => r.n)).toEqual([1, 4]);
    } finally {
      await t.drop();
    }
  });

  it('fail when a deferred write made in them fails, and the transaction goes on', async () => {
    const t = await openTestDb();
    try {
      await t.db.exec('CREATE TABLE sp_d (n int PRIMARY KEY)');
      const failed = await t.db.tx(async (q) => {
        await q.query('INSERT INTO sp_d VALUES ($1)', [1]);
        const outcome = await q
          .savepoint(async () => {
            await q.defer('INSERT INTO sp_d VALUES ($1)', [2]);
            await q.defer('INSERT INTO sp_d VALUES ($1)', [1]); // the duplicate: sent with the savepoint's end
            return 'kept';
          })
          .catch((err: Error) => err.message);
        await q.defer('INSERT INTO sp_d VALUES ($1)', [3]);
        return outcome;
      });
      expect(failed).toMatch(/duplicate key/);
      const rows = await t.db.query<{ n: number }>('SELECT n FROM sp_d ORDER BY n');
      expect(rows.map((r) => r.n)).toEqual([1, 3]);
    } finally {
      await t.drop();
    }
  });

  it('nest', async () => {
    const t = await openTestDb();
    try {
      await t.db.exec('CREATE TABLE sp_n (n int)');
      await t.db.tx(async (q) => {
        await q.savepoint(async () => {
          await q.defer('INSERT INTO sp_n VALUES ($1)', [1]);
          await q
            .savepoint(async () => {
              await q.defer('INSERT INTO sp_n VALUES ($1)', [2]);
              throw new Error('inner');
            })
            .catch(() => {});
          await q.query('INSERT INTO sp_n VALUES ($1)', [3]);
        });
      });
      const rows = await t.db.query<{ n: number }>('SELECT n FROM sp_n ORDER BY n');
      expect(rows.map((r) => r.n)).toEqual([1, 3]);
    } finally {
      await t.drop();
    }
  });
});

describe('a transaction', () => {
  it('fails a statement with the stack of the code that ran it', async () => {
    const t = await openTestDb();
    try {
      async function recordTheThing() {
        await t.db.tx(async (q) => {
          await q.query('SELECT $1::int', [1]);
          await q.query('SELECT no_such_column FROM pg_class WHERE oid = $1', [1]);
        });
      }
      const err = await recordTheThing().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(/no_such_column/);
      // Where to look when it is logged: the code that ran it, not only the driver's reader (and on
      // PostgreSQL, whose transaction awaits it, the callers up the chain).
      expect((err as Error).stack).toContain('db.test.ts');
      if (t.db.kind === 'pg') expect((err as Error).stack).toContain('recordTheThing');
    } finally {
      await t.drop();
    }
  });

  it('is one: its first statement and the rest commit or undo together', async () => {
    const t = await openTestDb();
    try {
      await t.db.exec('CREATE TABLE tx_one (n int PRIMARY KEY, at timestamptz, tags text[])');
      const at = new Date('2026-11-26T10:00:00.123Z');
      const first = await t.db.tx(async (q) => {
        // The first statement's rows come back typed as a prepared statement's would.
        const rows = await q.query<{ n: number; at: Date; tags: string[] }>(
          'INSERT INTO tx_one VALUES ($1, $2, $3) RETURNING n, at, tags',
          [1, at, ['a', "b'c"]],
        );
        await q.query('INSERT INTO tx_one VALUES ($1, $2, $3)', [2, at, []]);
        return rows;
      });
      expect(first).toEqual([{ n: 1, at, tags: ['a', "b'c"] }]);

      // A failing second statement undoes the first one.
      await expect(
        t.db.tx(async (q) => {
          await q.query('INSERT INTO tx_one VALUES ($1, $2, $3)', [3, at, []]);
          await q.query('INSERT INTO tx_one VALUES ($1, $2, $3)', [1, at, []]);
        }),
      ).rejects.toThrow(/duplicate key/);
      // A failing first statement leaves nothing open: the connection serves the next one.
      await expect(
        t.db.tx((q) => q.query('INSERT INTO tx_one VALUES ($1, $2, $3)', [1, at, []])),
      ).rejects.toThrow(/duplicate key/);
      const rows = await t.db.query<{ n: number }>('SELECT n FROM tx_one ORDER BY n');
      expect(rows.map((r) => r.n)).toEqual([1, 2]);
    } finally {
      await t.drop();
    }
  });

  it('takes binary values in its first statement, and may hold only deferred writes or nothing', async () => {
    const t = await openTestDb();
    try {
      await t.db.exec('CREATE TABLE tx_bin (n int, data bytea)');
      const bytes = Buffer.from([0, 1, 2, 255]);
      await t.db.tx(async (q) => {
        await q.query('INSERT INTO tx_bin VALUES ($1, $2)', [1, bytes]);
        await q.defer('INSERT INTO tx_bin VALUES ($1, NULL)', [2]);
      });
      await t.db.tx((q) => q.defer('INSERT INTO tx_bin VALUES ($1, NULL)', [3]));
      expect(await t.db.tx(async () => 'nothing to do')).toBe('nothing to do');
      const rows = await t.db.query<{ n: number; data: Buffer | Uint8Array | null }>(
        'SELECT n, data FROM tx_bin ORDER BY n',
      );
      expect(rows.map((r) => r.n)).toEqual([1, 2, 3]);
      expect([...(rows[0]!.data ?? [])]).toEqual([0, 1, 2, 255]);
    } finally {
      await t.drop();
    }
  });

  it('keeps row locks from its first statement to the end (a second transaction waits)', async () => {
    const t = await openTestDb();
    if (t.db.kind !== 'pg') return void (await t.drop()); // PGlite is one connection: nothing runs beside.
    try {
      await t.db.exec('CREATE TABLE tx_lock (n int); INSERT INTO tx_lock VALUES (0)');
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      const order: string[] = [];
      const first = t.db.tx(async (q) => {
        await q.query('UPDATE tx_lock SET n = n + $1', [1]);
        order.push('first locked');
        await held;
        order.push('first commits');
      });
      await new Promise((r) => setTimeout(r, 50));
      const second = t.db.tx(async (q) => {
        await q.query('UPDATE tx_lock SET n = n + $1', [10]);
        order.push('second updated');
      });
      await new Promise((r) => setTimeout(r, 100));
      release();
      await Promise.all([first, second]);
      expect(order).toEqual(['first locked', 'first commits', 'second updated']);
      expect(await t.db.query('SELECT n FROM tx_lock')).toEqual([{ n: 11 }]);
    } finally {
      await t.drop();
    }
  });
});

describe.runIf(TEST_DB === 'pg')('statements sent together (one write, one Sync)', () => {
  it('after a failure, the skipped statements are prepared again when next used', async () => {
    const t = await openTestDb();
    // One connection, so the next transaction runs where the skipped statement was never parsed.
    const one = await openPostgres(t.url!, 1);
    try {
      await one.exec('CREATE TABLE batch_skip (n int PRIMARY KEY)');
      const skipped = 'INSERT INTO batch_skip SELECT $1::int + 100';
      const err = await one
        .tx(async (q) => {
          await q.query('INSERT INTO batch_skip VALUES ($1)', [1]);
          await q.defer('INSERT INTO batch_skip VALUES ($1)', [1]); // fails: duplicate key
          await q.defer(skipped, [2]); // skipped by PostgreSQL, in the same write
        })
        .catch((e: Error) => e);
      expect(String(err)).toMatch(/duplicate key/);
      await one.tx(async (q) => {
        await q.query(skipped, [3]);
      });
      expect(await one.query('SELECT n FROM batch_skip')).toEqual([{ n: 103 }]);
    } finally {
      await one.close();
      await t.drop();
    }
  });

  it('a value the driver cannot convert fails the transaction before anything of its write is sent', async () => {
    const t = await openTestDb();
    try {
      await t.db.exec('CREATE TABLE batch_value (n int, doc jsonb)');
      const err = await t.db
        .tx(async (q) => {
          await q.query('INSERT INTO batch_value (n) VALUES ($1)', [1]);
          await q.defer('INSERT INTO batch_value (n, doc) VALUES ($1, $2)', [2, { big: 10n }]);
        })
        .catch((e: Error) => e);
      expect(String(err)).toMatch(/BigInt/);
      // The COMMIT was in that write: nothing of the transaction stays.
      expect(await t.db.query('SELECT n FROM batch_value')).toEqual([]);
    } finally {
      await t.drop();
    }
  });
});

/** What a listener heard, and a way to wait until it heard something. */
function hearing() {
  const heard: string[] = [];
  const waiting: [string, () => void][] = [];
  const fn = (payload: string) => {
    if (payload.startsWith('mark ')) return; // the test's own raw NOTIFYs (wireSettled)
    heard.push(payload);
    for (const [want, done] of waiting) if (payload === want) done();
  };
  const until = (payload: string) =>
    heard.includes(payload)
      ? Promise.resolve()
      : new Promise<void>((done, fail) => {
          const timer = setTimeout(() => fail(new Error(`"${payload}" never heard; heard ${heard}`)), 5000);
          waiting.push([
            payload,
            () => {
              clearTimeout(timer);
              done();
            },
          ]);
        });
  return { heard, fn, until };
}

describe('notifications', () => {
  it('are heard once the transaction commits, in order; not from a rollback or an undone savepoint', async () => {
    const t = await openTestDb({ migrated: true });
    try {
      const h = hearing();
      await t.db.listen('test_events', h.fn);
      await t.db.tx(async (q) => {
        await q.notify('test_events', 'first');
        await q.query('SELECT 1');
        await q
          .savepoint(async () => {
            await q.notify('test_events', 'undone with its savepoint');
            await q.query('SELECT 1');
            throw new Error('undo');
          })
          .catch(() => {});
        await q.notify('test_events', 'second');
        expect(h.heard).toEqual([]); // nothing before the commit
      });
      await t.db
        .tx(async (q) => {
          await q.notify('test_events', 'rolled back');
          await q.query('SELECT 1');
          throw new Error('roll back');
        })
        .catch(() => {});
      await t.db.notify('test_events', 'outside a transaction');
      await h.until('outside a transaction');
      expect(h.heard).toEqual(['first', 'second', 'outside a transaction']);
    } finally {
      await t.drop();
    }
  });
});

describe.runIf(TEST_DB === 'pg')('notifications between processes on one PostgreSQL', () => {
  /** A second "process": its own pool and listening connection on the same database. */
  async function pair() {
    const t = await openTestDb({ migrated: true });
    const other = await openPostgres(t.url!, 2);
    // A plain LISTEN, not registered as a listener: it hears only what went out as a NOTIFY.
    const raw = new pg.Client({ connectionString: t.url! });
    await raw.connect();
    await raw.query('LISTEN test_events');
    const wire: string[] = [];
    raw.on('notification', (n) => wire.push(n.payload ?? ''));
    /** Sends a NOTIFY after everything before it and waits for it: what went on the wire is in. */
    const wireSettled = async () => {
      const mark = `mark ${Math.random()}`;
      await t.db.query('SELECT pg_notify($1, $2)', ['test_events', mark]);
      while (!wire.includes(mark)) await new Promise((r) => setTimeout(r, 10));
      wire.splice(wire.indexOf(mark), 1);
    };
    return {
      t,
      other,
      wire,
      wireSettled,
      async close() {
        await raw.end();
        await other.close().catch(() => {});
        await t.drop();
      },
    };
  }

  it('a process alone sends no NOTIFY; with another listening, each hears every notification once', async () => {
    const p = await pair();
    try {
      const a = hearing();
      await p.t.db.listen('test_events', a.fn);
      await p.t.db.tx((q) => q.notify('test_events', 'a alone'));
      await a.until('a alone');
      await p.wireSettled();
      expect(p.wire).toEqual([]);

      const b = hearing();
      await p.other.listen('test_events', b.fn);
      await p.t.db.tx((q) => q.notify('test_events', 'from a'));
      await p.other.tx((q) => q.notify('test_events', 'from b'));
      await Promise.all([a.until('from a'), a.until('from b'), b.until('from a'), b.until('from b')]);
      await p.wireSettled();
      expect(p.wire).toEqual(['from a', 'from b']);
      expect(a.heard).toEqual(['a alone', 'from a', 'from b']);
      expect(b.heard).toEqual(['from a', 'from b']);

      // The other process stops: this one is alone again.
      await p.other.close();
      await p.t.db.tx((q) => q.notify('test_events', 'a alone again'));
      await a.until('a alone again');
      await p.wireSettled();
      expect(p.wire).toEqual(['from a', 'from b']);
    } finally {
      await p.close();
    }
  });

  it("hands this process's listeners the notification's value while alone; a NOTIFY carries the text only", async () => {
    const p = await pair();
    try {
      const aHeard: [string, unknown][] = [];
      await p.t.db.listen('test_events', (payload, value) => aHeard.push([payload, value]));
      const value = { said: 'alone' };
      await p.t.db.tx((q) => q.notify('test_events', 'alone', value));
      await p.t.db.notify('test_events', 'alone, outside a transaction', value);
      expect(aHeard).toEqual([
        ['alone', value],
        ['alone, outside a transaction', value],
      ]);
      expect(aHeard[0]![1]).toBe(value); // the object itself, not a copy

      const b = hearing();
      await p.other.listen('test_events', b.fn);
      await p.t.db.tx((q) => q.notify('test_events', 'both hear', { said: 'both' }));
      await b.until('both hear');
      for (let i = 0; aHeard.length < 3 && i < 500; i++) await new Promise((r) => setTimeout(r, 10));
      // Sent as a NOTIFY, this process reads it back like any other: text, no value.
      expect(aHeard[2]).toEqual(['both hear', undefined]);
    } finally {
      await p.close();
    }
  });

  it('a process starting to listen waits for a transaction that kept its notification in memory', async () => {
    const p = await pair();
    try {
      const a = hearing();
      await p.t.db.listen('test_events', a.fn);
      let commit!: () => void;
      const committing = new Promise<void>((r) => {
        commit = r;
      });
      const inFlight = p.t.db.tx(async (q) => {
        await q.notify('test_events', 'decided before b listened');
        await q.query('SELECT 1'); // the notification's statement has run: no one else listens
        await committing;
      });
      await new Promise((r) => setTimeout(r, 50));
      const b = hearing();
      let bListening = false;
      const listening = p.other.listen('test_events', b.fn).then(() => {
        bListening = true;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(bListening).toBe(false);
      commit();
      await inFlight;
      await listening;
      // Everything committed from now on reaches b.
      await p.t.db.tx((q) => q.notify('test_events', 'after b listened'));
      await b.until('after b listened');
      await a.until('after b listened');
      expect(a.heard).toEqual(['decided before b listened', 'after b listened']);
      expect(b.heard).toEqual(['after b listened']);
    } finally {
      await p.close();
    }
  });

  it('a listener whose connection is gone (a crashed process) is forgotten', async () => {
    const p = await pair();
    try {
      const a = hearing();
      await p.t.db.listen('test_events', a.fn);
      // A row as a crashed process leaves it: no such backend.
      await p.t.db.query(
        `INSERT INTO db_listeners (channel, pid, backend_start) VALUES ('test_events', -1, now())`,
      );
      await p.t.db.tx((q) => q.notify('test_events', 'sent for the crashed one'));
      await a.until('sent for the crashed one');
      await p.wireSettled();
      expect(p.wire).toEqual(['sent for the crashed one']);
      // Seeing another listener, the process checks the rows and removes the gone one.
      for (let i = 0; i < 100; i++) {
        if ((await p.t.db.query('SELECT pid FROM db_listeners WHERE pid = -1')).length === 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await p.t.db.tx((q) => q.notify('test_events', 'alone'));
      await a.until('alone');
      await p.wireSettled();
      expect(p.wire).toEqual(['sent for the crashed one']);
      expect(a.heard).toEqual(['sent for the crashed one', 'alone']);
    } finally {
      await p.close();
    }
  });
});

import type { Queryable } from './db.ts';

/**
 * A table of appended deltas (migration 030, docs/architecture.md "Counters and rollups"): statement
 * triggers append signed rows marked `fresh`; readers sum the rows of their keys.
 */
export interface TallyTable {
  table: string;
  /** Key columns that are never null (compared with =, so the key index serves the fold). */
  keys: string[];
  /** Key columns that may be null (compared with IS NOT DISTINCT FROM). */
  nullableKeys?: string[];
  /** The summed columns. */
  values: string[];
}

/**
 * Folds the rows of the keys that received fresh rows into one row per key, in one statement (so any
 * reader's snapshot sees either the rows or their sum), at most `batch` keys at a time. Rows appended
 * meanwhile stay fresh for the next fold; two folds at once cannot count a row twice (the second's
 * DELETE skips rows the first removed). Returns the number of keys folded.
 */
export async function foldTallies(q: Queryable, t: TallyTable, batch = 5_000): Promise<number> {
  const keys = [...t.keys, ...(t.nullableKeys ?? [])];
  const cols = [...keys, ...t.values];
  const on = [
    'true',
    ...t.keys.map((k) => `x.${k} = p.${k}`),
    ...(t.nullableKeys ?? []).map((k) => `x.${k} IS NOT DISTINCT FROM p.${k}`),
  ].join(' AND ');
  const sums = t.values.map((v) => `sum(${v})`);
  const groupBy = keys.length ? `GROUP BY ${keys.join(', ')}` : '';
  const piled = keys.length
    ? `SELECT DISTINCT ${keys.join(', ')} FROM ${t.table} WHERE fresh LIMIT ${batch}`
    : `SELECT 1 AS one FROM ${t.table} WHERE fresh LIMIT 1`;
  const rows = await q.query<{ n: number }>(
    `WITH piled AS (${piled}),
     gone AS (DELETE FROM ${t.table} x USING piled p WHERE ${on} RETURNING ${cols.map((c) => `x.${c}`).join(', ')}),
     folded AS (
       INSERT INTO ${t.table} (${cols.join(', ')}, fresh)
       SELECT ${[...keys, ...sums].join(', ')}, false FROM gone ${groupBy}
       HAVING ${sums.map((s) => `coalesce(${s}, 0) <> 0`).join(' OR ')}
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM piled)::int AS n`,
  );
  return rows[0]?.n ?? 0;
}

/** Folds until a batch comes back short (what was appended since the last run). */
export async function foldAll(q: Queryable, tables: TallyTable[], batch = 5_000): Promise<void> {
  for (const t of tables) {
    while ((await foldTallies(q, t, batch)) >= batch) {
      // a full batch: more keys may be waiting
    }
  }
}

import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ShapedQuery } from './shaped-query.ts';

// A prepared statement's result shape is built once and reused; rows always follow the columns the
// answer describes. The query is driven as node-postgres's connection drives it, message by message.

const INT4 = 23;
const TEXT = 25;
const TIMESTAMPTZ = 1184;

const column = (name: string, dataTypeID: number) => ({
  name,
  tableID: 0,
  columnID: 0,
  dataTypeID,
  dataTypeSize: -1,
  dataTypeModifier: -1,
  format: 'text',
});

interface Internals {
  name?: string;
  _result: { _parsers: unknown[] };
  handleRowDescription(msg: unknown): void;
  handleDataRow(msg: unknown): void;
  handleCommandComplete(msg: unknown, connection: unknown): void;
  handleReadyForQuery(connection: unknown): void;
}

let names = 0;

/** Runs one answer (columns, then rows) through a query named `name`; its rows and parsers. */
function answer(
  query: pg.Query,
  name: string,
  columns: ReturnType<typeof column>[],
  rows: (string | null)[][],
): { rows: Record<string, unknown>[]; parsers: unknown[] } {
  const q = query as unknown as Internals;
  q.name = name;
  let result: pg.QueryResult | undefined;
  (query as unknown as { callback: unknown }).callback = (_err: unknown, r: pg.QueryResult) => {
    result = r;
  };
  q.handleRowDescription({ fields: columns });
  for (const r of rows) q.handleDataRow({ fields: r });
  q.handleCommandComplete({ text: `SELECT ${rows.length}` }, {});
  q.handleReadyForQuery({});
  return { rows: result!.rows, parsers: q._result._parsers };
}

describe('ShapedQuery', () => {
  it('builds a statement’s type parsers once and parses every later answer with them', () => {
    const name = `shape_${names++}`;
    const cols = [column('n', INT4), column('s', TEXT), column('at', TIMESTAMPTZ)];
    const first = answer(new ShapedQuery('SELECT'), name, cols, [['5', 'five', '2026-11-27 10:00:00+00']]);
    const second = answer(new ShapedQuery('SELECT'), name, cols, [
      ['7', 'seven', '2026-11-27 11:30:00+00'],
      [null, 'none', null],
    ]);
    expect(first.rows).toEqual([{ n: 5, s: 'five', at: new Date('2026-11-27T10:00:00Z') }]);
    expect(second.rows).toEqual([
      { n: 7, s: 'seven', at: new Date('2026-11-27T11:30:00Z') },
      { n: null, s: 'none', at: null },
    ]);
    expect(second.parsers).toBe(first.parsers);
    // Rows are objects of their own, not one shared empty row.
    expect(second.rows[0]).not.toBe(second.rows[1]);
  });

  it('follows the columns an answer describes when they differ from the kept shape', () => {
    const name = `shape_${names++}`;
    answer(new ShapedQuery('SELECT'), name, [column('n', INT4)], [['5']]);
    // Another type (an enum's OID differs between databases), then another name, then more columns.
    expect(answer(new ShapedQuery('SELECT'), name, [column('n', TEXT)], [['5']]).rows).toEqual([{ n: '5' }]);
    expect(answer(new ShapedQuery('SELECT'), name, [column('m', TEXT)], [['5']]).rows).toEqual([{ m: '5' }]);
    expect(
      answer(new ShapedQuery('SELECT'), name, [column('m', TEXT), column('k', INT4)], [['5', '6']]).rows,
    ).toEqual([{ m: '5', k: 6 }]);
    expect(answer(new ShapedQuery('SELECT'), name, [column('m', TEXT)], [['8']]).rows).toEqual([{ m: '8' }]);
  });

  it('keeps the parsers of each source apart (a connection gives its queries its own)', () => {
    const name = `shape_${names++}`;
    answer(new ShapedQuery('SELECT'), name, [column('n', INT4)], [['5']]);
    const own = { getTypeParser: () => (v: string) => `own:${v}` };
    const withOwn = () => new ShapedQuery({ text: 'SELECT', types: own } as pg.QueryConfig);
    const first = answer(withOwn(), name, [column('n', INT4)], [['5']]);
    expect(first.rows).toEqual([{ n: 'own:5' }]);
    // The same source again: its shape is reused.
    const again = answer(withOwn(), name, [column('n', INT4)], [['6']]);
    expect(again.rows).toEqual([{ n: 'own:6' }]);
    expect(again.parsers).toBe(first.parsers);
    // A connection sets its parsers on the query's result after construction, as node-postgres does.
    const viaClient = new ShapedQuery('SELECT');
    (viaClient as unknown as { _result: { _types: unknown } })._result._types = {
      getTypeParser: () => (v: string) => `client:${v}`,
    };
    expect(answer(viaClient, name, [column('n', INT4)], [['7']]).rows).toEqual([{ n: 'client:7' }]);
    // …and none of them became the default parsers' shape.
    expect(answer(new ShapedQuery('SELECT'), name, [column('n', INT4)], [['8']]).rows).toEqual([{ n: 8 }]);
  });

  it('treats an unnamed query as node-postgres does', () => {
    const q = new ShapedQuery('SELECT 1');
    const q2 = q as unknown as Internals;
    let rows: unknown[] = [];
    (q as unknown as { callback: unknown }).callback = (_e: unknown, r: pg.QueryResult) => {
      rows = r.rows;
    };
    q2.handleRowDescription({ fields: [column('n', INT4)] });
    q2.handleDataRow({ fields: ['1'] });
    q2.handleCommandComplete({ text: 'SELECT 1' }, {});
    q2.handleReadyForQuery({});
    expect(rows).toEqual([{ n: 1 }]);
  });
});

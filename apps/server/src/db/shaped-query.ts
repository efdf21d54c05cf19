import pg from 'pg';

// node-postgres builds a statement's result shape (one type parser per column and an empty row to
// copy for each row) from the RowDescription of every answer, again for each run of a prepared
// statement: the largest single function in the server's CPU profile at 100 SMS/s
// (`Result.addFields`, bench/RESULTS.md). A prepared statement answers with the same columns every
// time, so its shape is built once per name and reused while the columns match.

/** A column as node-postgres's protocol parser gives it. */
interface FieldDescription {
  name: string;
  dataTypeID: number;
  format: string;
}

/** node-postgres's result, as far as its shape goes (not in its types). */
interface ResultInternals {
  command: string | null;
  fields: FieldDescription[];
  _types: unknown;
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: Record<string, null> | null;
}

interface Shape {
  fields: FieldDescription[];
  parsers: unknown[] | undefined;
  emptyRow: Record<string, null> | null;
}

/**
 * One shape per prepared statement name (the names are bounded, see `preparedName`) and source of
 * type parsers: a connection gives its queries its own (node-postgres's defaults unless it was
 * configured otherwise); a statement of a batch has none, node-postgres's defaults.
 */
const defaultShapes = new Map<string, Shape>();
const shapesByTypes = new WeakMap<object, Map<string, Shape>>();

function shapesOf(types: unknown): Map<string, Shape> {
  if (typeof types !== 'object' || types === null) return defaultShapes;
  let shapes = shapesByTypes.get(types);
  if (!shapes) {
    shapes = new Map();
    shapesByTypes.set(types, shapes);
  }
  return shapes;
}

function sameColumns(a: readonly FieldDescription[], b: readonly FieldDescription[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.name !== y.name || x.dataTypeID !== y.dataTypeID || x.format !== y.format) return false;
  }
  return true;
}

/** A node-postgres query that reuses its prepared statement's result shape. */
export class ShapedQuery extends pg.Query {
  handleRowDescription(msg: { fields: FieldDescription[] }): void {
    const self = this as unknown as { name?: string; _result: ResultInternals };
    const result = self._result;
    const name = self.name;
    // An unnamed statement, or a second result of one query, goes node-postgres's way.
    if (name === undefined || result.command !== null) {
      pgHandleRowDescription.call(this, msg);
      return;
    }
    const shapes = shapesOf(result._types);
    const known = shapes.get(name);
    if (known && sameColumns(known.fields, msg.fields)) {
      result.fields = msg.fields;
      result._parsers = known.parsers;
      result._prebuiltEmptyResultObject = known.emptyRow;
      const query = this as unknown as { callback?: unknown; _accumulateRows: unknown };
      query._accumulateRows = query.callback || !this.listeners('row').length;
      return;
    }
    pgHandleRowDescription.call(this, msg);
    shapes.set(name, {
      fields: msg.fields,
      parsers: result._parsers,
      emptyRow: result._prebuiltEmptyResultObject,
    });
  }
}

const pgHandleRowDescription = (
  pg.Query.prototype as unknown as { handleRowDescription(this: pg.Query, msg: unknown): void }
).handleRowDescription;

import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';
import { ShapedQuery } from './shaped-query.ts';

// Several statements of one transaction sent with one Sync, so PostgreSQL answers them in one flush.
// node-postgres ends every statement with a Sync, and PostgreSQL flushes its output at each one: the
// statements of one write came back in several reads, each one a wake-up of this process (an SMS's
// two round trips: five reads instead of two, bench/RESULTS.md). This is a node-postgres "submittable"
// (the extension point pg-cursor uses): the client hands it every message until the ReadyForQuery
// that answers its one Sync, and it hands each statement's messages to that statement's own query.

/** The part of node-postgres's connection a batch uses. */
interface Connection {
  stream: { cork(): void; uncork(): void };
  sync(): void;
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
}

/** node-postgres's query, as the batch drives it (its response handlers are not in its types). */
interface QueryInternals {
  name?: string;
  text: string;
  submit(connection: Connection): Error | null;
  handleRowDescription(msg: unknown): void;
  handleDataRow(msg: unknown): void;
  handleCommandComplete(msg: unknown, connection: Connection): void;
  handleEmptyQuery(connection: Connection): void;
  handleError(err: Error, connection?: Connection): void;
  handleReadyForQuery(connection: Connection): void;
}

/** A node-postgres query that leaves out its Sync: the batch sends one after its last statement. */
class UnsyncedQuery extends ShapedQuery {
  _getRows(connection: { execute(config: { portal: string; rows: number | undefined }): void }): void {
    const self = this as unknown as { portal: string; rows: number | undefined };
    connection.execute({ portal: self.portal, rows: self.rows });
  }
}

export type Answer = (err: Error | undefined, result: pg.QueryResult) => void;

/**
 * One statement for a batch: always the extended protocol (a simple query would answer with its own
 * ReadyForQuery), named when `name` is given. Its values are converted here, as node-postgres would
 * at the Bind: a value it cannot convert fails the statement before anything is written.
 */
export function batchStatement(
  text: string,
  values: unknown[] | undefined,
  name: string | undefined,
  answer: Answer,
): QueryInternals | Error {
  let converted: unknown[] | undefined;
  try {
    converted = values?.map((v) => pgUtils.prepareValue(v));
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
  // From the text, not a config object: node-postgres copies a config object property by property.
  const query = new UnsyncedQuery(text, converted, answer);
  const internals = query as unknown as { name?: string; queryMode: string };
  internals.queryMode = 'extended';
  if (name !== undefined) internals.name = name;
  return query as unknown as QueryInternals;
}

/**
 * Statements that share one Sync: PostgreSQL runs them in order and skips the rest after an error.
 * A node-postgres query by class only because a pipelined client takes no other kind; every part
 * of it that the client uses is its own.
 */
export class StatementBatch extends pg.Query {
  /** The statement whose answer is arriving. */
  private at = 0;
  private readonly statements: QueryInternals[];

  constructor(statements: QueryInternals[]) {
    super('');
    this.statements = statements;
  }

  // The client records a named statement as parsed (or forgets it after an error) by these; the
  // base class's constructor sets them, which means nothing here.
  get name(): string | undefined {
    return this.statements?.[this.at]?.name;
  }
  set name(_: string | undefined) {}
  get text(): string {
    return this.statements?.[this.at]?.text ?? '';
  }
  set text(_: string) {}

  // @ts-expect-error node-postgres's types give its connection; the batch uses a part of it
  submit(connection: Connection): void {
    connection.stream.cork();
    try {
      for (const s of this.statements) {
        const invalid = s.submit(connection);
        if (invalid) throw invalid; // a name reused for another text: a bug, not a database error
      }
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
  }

  handleRowDescription(msg: unknown): void {
    this.statements[this.at]?.handleRowDescription(msg);
  }
  handleDataRow(msg: unknown): void {
    this.statements[this.at]?.handleDataRow(msg);
  }
  handleCommandComplete(msg: unknown, connection: Connection): void {
    this.statements[this.at++]?.handleCommandComplete(msg, connection);
  }
  handleEmptyQuery(connection: Connection): void {
    this.statements[this.at++]?.handleEmptyQuery(connection);
  }

  /**
   * The statement at `at` failed; PostgreSQL skipped every later one. The client hands a failed
   * query nothing more (not the ReadyForQuery), so everything answers now: those before it with
   * their results, it with its error, the skipped ones (never parsed: their names are forgotten)
   * with the same error, the cause in their transaction.
   */
  handleError(err: Error, connection: Connection): void {
    // An error after the last statement's answer (none is expected inside a transaction block)
    // is the last statement's: the batch must not look as if it went through.
    const failed = Math.min(this.at, this.statements.length - 1);
    for (const s of this.statements.slice(failed + 1)) {
      if (s.name && connection.parsedStatements[s.name] === undefined)
        delete connection.submittedNamedStatements[s.name];
    }
    for (const s of this.statements.slice(0, failed)) s.handleReadyForQuery(connection);
    for (const s of this.statements.slice(failed)) s.handleError(err, connection);
  }

  handleReadyForQuery(connection: Connection): void {
    for (const s of this.statements) s.handleReadyForQuery(connection);
  }

  handlePortalSuspended(): void {
    throw new Error('a batched statement cannot read rows in pages');
  }
  handleCopyInResponse(): void {
    throw new Error('a batched statement cannot COPY');
  }
  handleCopyData(): void {
    throw new Error('a batched statement cannot COPY');
  }
}

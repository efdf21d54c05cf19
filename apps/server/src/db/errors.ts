// Which database errors are the client's input and which mean "the database is not there", so the
// error handler answers 400 or 503 instead of 500. Both drivers are covered: node-postgres (pg
// errors with a SQLSTATE `code`, socket errors with an errno `code`) and PGlite.

type Errish = { code?: unknown; message?: unknown; errors?: unknown };

/** SQLSTATE codes input can still cause: bad encoding, out of range, bad text form, too long, index row too big. */
const INPUT_STATES = new Set(['22021', '22003', '22P02', '22001', '22P05', '54000']);

/**
 * SQLSTATEs meaning the database is not there for us: shutdown, crash, starting up, too many
 * connections, connection exceptions (08xxx), no such database (3D000), the server refusing our
 * role or password (28000, 28P01).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '3D000', '28000', '28P01']);
/** Undefined table or column: the schema is missing or behind the code (when migrations are pending). */
const SCHEMA_STATES = new Set(['42P01', '42703']);
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Cannot use a pool after calling end on the pool',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'PGlite is closed',
];

function codeOf(err: unknown): string | undefined {
  const c = (err as Errish | null)?.code;
  return typeof c === 'string' ? c : undefined;
}

/** A data error PostgreSQL raised about a value the client sent. */
export function isDbInputError(err: unknown): boolean {
  const code = codeOf(err);
  return code !== undefined && INPUT_STATES.has(code);
}

/**
 * A query named a table or column the database does not have. Only a sign of a missing or
 * unmigrated schema when migrations are pending; otherwise a bug (the error handler checks).
 */
export function isDbSchemaMissing(err: unknown): boolean {
  const code = codeOf(err);
  return code !== undefined && SCHEMA_STATES.has(code);
}

/** The database cannot be reached (or is closed, or shutting down): the request may work later. */
export function isDbUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = codeOf(err);
  if (code && (UNAVAILABLE_STATES.has(code) || code.startsWith('08') || SOCKET_CODES.has(code))) return true;
  const msg = (err as Errish).message;
  if (typeof msg === 'string' && UNAVAILABLE_MESSAGES.some((m) => msg.includes(m))) return true;
  // Node reports a failed connect to several addresses (::1 and 127.0.0.1) as an AggregateError.
  const inner = (err as Errish).errors;
  return Array.isArray(inner) && inner.length > 0 && inner.every((e) => isDbUnavailable(e));
}

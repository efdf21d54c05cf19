// @simdock/server/testing: helpers the server's own tests, the browser tests and the benchmarks share.

/** The migration files in the order they apply (the browser tests compare a database's record with it). */
export { migrationFiles } from '../db/migrate.ts';
/** Every module's descriptor: the docs check (tools/check-docs) holds the docs against them. */
export { MODULES } from '../modules/index.ts';
export { addService, ledgerMismatches, seedGateway, waitFor } from './fixtures.ts';
export {
  openTestDb,
  startTestServer,
  TEST_DB,
  type TestDb,
  type TestServer,
  testConfig,
} from './harness.ts';
export {
  type Exit,
  freePort,
  type ProcessOptions,
  type ServerProcess,
  startServerProcess,
} from './process.ts';
export { type ApiResult, requestJson } from './request.ts';
export { type ReceivedMail, startTestSmtp, type TestSmtp } from './smtp.ts';
export { openSse, type SseClient } from './sse.ts';

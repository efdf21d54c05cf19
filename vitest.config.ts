import { readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// One runner for the whole repo. Server tests run twice: on embedded PGlite and, when
// TEST_DATABASE_URL is set (CI always sets it), on a PostgreSQL server.
const pgUrl = process.env.TEST_DATABASE_URL;

// Server test files that never reach a database (pure functions, parsers, a simulated device): the
// second run on PostgreSQL would repeat them unchanged, so they run in server-pglite only. Every
// other server test file runs on both. A file listed here that starts a server or opens a database
// stops the run (checked below), so the list cannot hide a database test from PostgreSQL.
const SERVER_DB_FREE = [
  'apps/server/src/bounded-map.test.ts',
  'apps/server/src/config.test.ts',
  'apps/server/src/crypto.test.ts',
  'apps/server/src/events.test.ts',
  'apps/server/src/runtime.test.ts',
  'apps/server/src/sessions.test.ts',
  'apps/server/src/db/batch.test.ts',
  'apps/server/src/db/group-commit.test.ts',
  'apps/server/src/db/shaped-query.test.ts',
  'apps/server/src/modules/boundaries.test.ts',
  'apps/server/src/modules/catalogue/origin.test.ts',
  'apps/server/src/modules/catalogue/sms-activate-countries.test.ts',
  'apps/server/src/modules/gateways/driver/contract.test.ts',
  'apps/server/src/modules/gateways/driver/ejoin.mms.test.ts',
  'apps/server/src/modules/gateways/driver/ejoin.parse.test.ts',
  'apps/server/src/modules/gateways/driver/ejoin.test.ts',
  'apps/server/src/modules/gateways/driver/goip.dedupe.test.ts',
  'apps/server/src/modules/gateways/driver/goip.protocol.test.ts',
  'apps/server/src/modules/gateways/driver/goip.session.test.ts',
  'apps/server/src/modules/gateways/driver/goip.web.parse.test.ts',
  'apps/server/src/modules/gateways/driver/goip.web.test.ts',
  'apps/server/src/modules/gateways/driver/smsgate.parse.test.ts',
  'apps/server/src/modules/gateways/driver/smsgate.test.ts',
  'apps/server/src/modules/gateways/driver/transport.test.ts',
  'apps/server/src/modules/gateways/vendor-neutral.test.ts',
  'apps/server/src/modules/messaging/claim-plan.test.ts',
  'apps/server/src/modules/smpp/smpp.unit.test.ts',
  'apps/server/src/modules/payments/payment-state.test.ts',
  'apps/server/src/modules/payments/providers/money.test.ts',
  'apps/server/src/modules/payments/providers/nowpayments.signature.test.ts',
  'apps/server/src/modules/payments/providers/nowpayments.test.ts',
  'apps/server/src/modules/rental/code-extraction.test.ts',
  'apps/server/src/modules/users/passwords.test.ts',
  'apps/server/src/workers/listeners.test.ts',
];
for (const file of SERVER_DB_FREE) {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  const reaches = text.match(
    /\/test\/|\btesting\b|TEST_DB|db\/db\.ts|\/db\.ts|openPglite|openPostgres|startServer|\bserver\.ts/,
  );
  if (reaches)
    throw new Error(
      `${file} is listed as database-free but uses "${reaches[0]}": take it off SERVER_DB_FREE`,
    );
}

// Each test file still runs alone (its own module graph and globals), in a worker thread rather
// than a child process: a file starts cheaper, and PGlite's WebAssembly, compiled once per process,
// is not compiled again for every server test file. The server tests took 20% less CPU in threads.
const pool = 'threads';

// Server test files share a worker's module graph (no isolation): each file starts its own server on
// its own database, and nothing the server holds is module-level state, so the only thing isolation
// bought was importing the whole server again for every file (half of the server tests' time).
// Hence no vi.mock in server tests: a test observes the server from outside (its API, /metrics).
const serverIsolate = false;
for (const file of readdirSync(new URL('apps/server/src', import.meta.url), { recursive: true })) {
  if (!String(file).endsWith('.test.ts')) continue;
  const text = readFileSync(new URL(`apps/server/src/${file}`, import.meta.url), 'utf8');
  if (/\bvi\.(do)?mock\(/.test(text))
    throw new Error(`apps/server/src/${file} mocks a module: server test files share modules (see above)`);
}

// The files that take longest start first in their project, in this order: a long file started
// last is the run's tail, with one worker busy and the others idle. Vitest orders by the last run's
// timings, but a fresh clone (CI) has none and it falls back to file size, which started the
// 76-second connection test 190 s into the browser tests, after 20 shorter files. Measured on the
// developers' machine; a file missing here only loses its early start.
const LONGEST_FIRST = [
  'e2e/screens.test.ts',
  'e2e/connection.test.ts',
  'e2e/foundation.test.ts',
  'e2e/messaging.test.ts',
  'e2e/a11y.test.ts',
  'e2e/keyboard.test.ts',
  'e2e/apikey.test.ts',
  'apps/server/src/http/fuzz.test.ts',
  'apps/server/src/faults.test.ts',
];

const ROOT = fileURLToPath(new URL('.', import.meta.url));

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FIRST.indexOf(relative(ROOT, spec.moduleId));
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    // Within each project's run of files (Vitest runs projects one after the other), a stable sort.
    const out: TestSpecification[] = [];
    for (let start = 0; start < sorted.length; ) {
      let end = start;
      while (end < sorted.length && sorted[end]!.project === sorted[start]!.project) end += 1;
      out.push(...sorted.slice(start, end).sort((a, b) => rank(a) - rank(b)));
      start = end;
    }
    return out;
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    // Three test files at a time on 2 cores (Vitest's default is one): the server tests wait on the
    // database much of the time. The browser tests run after them, two at a time (below).
    maxWorkers: 3,
    projects: [
      // Property tests (fast-check) run hundreds of cases: on a loaded machine a few take seconds.
      {
        test: {
          name: 'contract',
          pool,
          include: ['packages/contract/src/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      { test: { name: 'gateway-sim', pool, include: ['tools/gateway-sim/src/**/*.test.ts'] } },
      { test: { name: 'goip-sim', pool, include: ['tools/goip-sim/src/**/*.test.ts'] } },
      { test: { name: 'payment-sim', pool, include: ['tools/payment-sim/src/**/*.test.ts'] } },
      { test: { name: 'phone-sim', pool, include: ['tools/phone-sim/src/**/*.test.ts'] } },
      { test: { name: 'sim-kit', pool, include: ['tools/sim-kit/src/**/*.test.ts'] } },
      // The deploy kit's files (compose, Kubernetes, alert rules, systemd); `npm run test:deploy` runs them.
      { test: { name: 'deploy', pool, include: ['deploy/**/*.test.ts'] } },
      {
        test: {
          name: 'server-pglite',
          pool,
          isolate: serverIsolate,
          include: ['apps/server/src/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(pgUrl
        ? [
            {
              test: {
                name: 'server-pg',
                pool,
                isolate: serverIsolate,
                include: ['apps/server/src/**/*.test.ts'],
                exclude: SERVER_DB_FREE,
                env: { TEST_DB: 'pg', TEST_DATABASE_URL: pgUrl },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      'apps/web/vitest.config.ts',
      {
        test: {
          name: 'e2e',
          pool,
          isolate: false,
          // Chromium keeps both cores busy: a third browser test at once only makes each slower
          // (measured: 245 s for the suite against 232 s). A group of their own, after the others.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          include: ['e2e/**/*.test.ts'],
          // Fails a test on any console error or CSP violation in its pages (e2e/setup.ts).
          setupFiles: ['e2e/setup.ts'],
          // The multi-process test (e2e/multiprocess.test.ts) runs on a PostgreSQL server when set.
          env: pgUrl ? { TEST_DATABASE_URL: pgUrl } : {},
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll waits like a locator does (10 s), not 1 s: after a reload the app's chunks,
          // the session and the list can take longer than a second while other tests load both cores.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});

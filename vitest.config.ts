import { defineConfig } from 'vitest/config';

// One runner for the whole repo. Server tests run twice: on embedded PGlite and, when
// TEST_DATABASE_URL is set (CI always sets it), on a PostgreSQL server.
const pgUrl = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    // Two test files at a time (Vitest's default on 2 cores is one): the server tests wait on the
    // database much of the time, so a browser test file (each has its own server, database and
    // Chromium) runs beside them instead of after them.
    maxWorkers: 2,
    projects: [
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'] } },
      { test: { name: 'gateway-sim', include: ['tools/gateway-sim/src/**/*.test.ts'] } },
      { test: { name: 'payment-sim', include: ['tools/payment-sim/src/**/*.test.ts'] } },
      {
        test: {
          name: 'server-pglite',
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
                include: ['apps/server/src/**/*.test.ts'],
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
          include: ['e2e/**/*.test.ts'],
          // The multi-process test (e2e/multiprocess.test.ts) runs on a PostgreSQL server when set.
          env: pgUrl ? { TEST_DATABASE_URL: pgUrl } : {},
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

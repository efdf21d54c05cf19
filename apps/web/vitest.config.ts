import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    // Each test file in a fresh VM context of a shared worker thread: as isolated as a worker of its
    // own (own globals, own module instances, own DOM), without building a worker and a jsdom
    // environment from scratch for every file. The web tests took half the time and CPU.
    pool: 'vmThreads',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // A failed load is shown after the query's retries (about 3 s of backoff), so several tests wait up
    // to 14 s for it (3 s of backoff stretch under load); the default 5 s per test cut them short when the server tests share both cores.
    testTimeout: 15_000,
  },
});

import { afterEach } from 'vitest';
import { assertNoBrowserProblems, clearAllowedConsoleErrors } from './harness.ts';

// Every browser test fails on a console error, an uncaught error or a CSP violation in any of its
// pages (e2e/harness.ts). A setup file runs for each test file, so the hook is registered in each
// (the e2e project shares modules between files: a hook in harness.ts would register once).
afterEach(() => {
  clearAllowedConsoleErrors();
  assertNoBrowserProblems();
});

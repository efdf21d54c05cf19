import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { loadTexts } from '../i18n/index.tsx';

// The shell is a lazily loaded chunk: load it once up front so the first test of a file does not
// spend its find* timeout on the import. The machine is shared: allow finds a little longer.
// Same for the English texts the app loads with the shell and the public pages (tests also render
// pages on their own).
await import('../app/shell/AppShell.tsx');
await Promise.all([loadTexts('screens'), loadTexts('public')]);
configure({ asyncUtilTimeout: 3000 });

// Every web test starts clean: nothing rendered, no session, no stubbed fetch.
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

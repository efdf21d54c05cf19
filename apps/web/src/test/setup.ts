import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Every web test starts clean: nothing rendered, no session, no stubbed fetch.
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

/**
 * The sign-in token, kept in localStorage under `jwtToken` (docs/product.md#session). The API client reads it
 * for the bearer header; the session subscribes to changes made here and in other tabs (`storage` events).
 */
export const TOKEN_KEY = 'jwtToken';

type Listener = () => void;
const listeners = new Set<Listener>();

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

function emit() {
  for (const fn of listeners) fn();
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
  emit();
}

export function clearToken(): void {
  try {
    localStorage.removeItem(TOKEN_KEY);
  } finally {
    emit();
  }
}

/** Calls `fn` when the token changes in this tab or in another one. Returns the unsubscribe function. */
export function subscribeToken(fn: Listener): () => void {
  listeners.add(fn);
  const onStorage = (e: StorageEvent) => {
    // key null: the other tab cleared all of localStorage.
    if (e.key === TOKEN_KEY || e.key === null) fn();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(fn);
    window.removeEventListener('storage', onStorage);
  };
}

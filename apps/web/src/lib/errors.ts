import { ApiError } from '../api/client.ts';
import type { TFunction } from '../i18n/index.tsx';

export type FailureKind = 'offline' | 'network' | 'server' | 'notFound' | 'forbidden' | 'other';

/** What kind of failure an error is, so a view can say what to do next. */
export function failureKind(err: unknown): FailureKind {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return 'offline';
  if (err instanceof ApiError) {
    if (err.status === 0) return 'network';
    if (err.status >= 500) return 'server';
    if (err.status === 404) return 'notFound';
    if (err.status === 403) return 'forbidden';
  }
  return 'other';
}

/**
 * The plain-words text for a failure: the server's own message when it sent one, else a sentence
 * that says what went wrong and what to do ("No connection to the server. Check your connection…").
 */
export function failureText(err: unknown, t: TFunction): string {
  const kind = failureKind(err);
  if (kind === 'offline') return t('errors.offline');
  if (kind === 'network') return t('errors.network');
  const fromServer = serverText(err);
  if (fromServer) return fromServer;
  if (kind === 'server') return t('errors.server');
  if (kind === 'forbidden') return t('errors.forbidden');
  if (kind === 'notFound') return t('errors.notFound');
  if (err instanceof Error && err.message) return err.message;
  return t('errors.unexpected');
}

/**
 * The server's explanation of a failure, in the user's language (a contract text translated, else its
 * error code's text; see api/client.ts), or undefined when the server gave none: then the caller shows
 * its own words ('Không thể đổi mật khẩu.', 'Send error.').
 */
export function serverText(err: unknown): string | undefined {
  return err instanceof ApiError && err.serverMessage ? err.message : undefined;
}

import { isAdmin, type Role, type UserInfo } from '@simdock/contract';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
} from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../api/client.ts';
import { clearToken, getToken, setToken, subscribeToken } from '../api/token.ts';
import { SESSION_QUERY_KEY, userInfoQuery } from '../api/user.ts';
import { readToken, sameSubject } from './session-core.ts';

/**
 * The session (docs/product.md#session). The token lives in localStorage under `jwtToken`; it is decoded on
 * load and whenever it changes, here or in another tab. An expired or unreadable token is removed and the
 * user cleared; otherwise the roles come from the token's role claim and the user info is fetched. `loading`
 * holds until that is done.
 */
export interface Session {
  /** True while a stored token's user info is being fetched. */
  loading: boolean;
  /** The signed-in user's info (username, email, createdTime, apiKey, balance, roles), or null. */
  user: UserInfo | null;
  /** Roles from the token's role claim. */
  roles: Role[];
  isAdmin: boolean;
  /** Where this user lands: the admin overview for Admin9, else the Dashboard. */
  home: string;
  /** The user info could not be fetched for a valid token (network or server error). */
  error: Error | null;
  /** Stores a token from /api/Auth/login and loads its user. */
  login(token: string): void;
  /** Removes the token and goes to / (which then leads to /login). */
  logout(): void;
  /** Refetches the user info (e.g. after a payment changed the balance). */
  refresh(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

/** Logout was chosen (not an expiry or another tab): the guards then send to /login with no page to return to. */
let signedOutByUser = false;
export const wasSignedOutByUser = () => signedOutByUser;

/** Longest delay setTimeout accepts (about 24.8 days). */
const MAX_TIMEOUT = 2 ** 31 - 1;
const NO_ROLES: Role[] = [];

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const token = useSyncExternalStore(subscribeToken, getToken, () => null);
  const state = useMemo(() => readToken(token, Date.now()), [token]);

  // An expired or unreadable token is removed (which clears the user).
  useEffect(() => {
    if (state.kind === 'expired' || state.kind === 'invalid') clearToken();
  }, [state]);

  // A valid token is removed the moment it expires.
  useEffect(() => {
    if (state.kind !== 'valid' || state.expiresAt === null) return;
    const timer = setTimeout(clearToken, Math.min(MAX_TIMEOUT, Math.max(0, state.expiresAt - Date.now())));
    return () => clearTimeout(timer);
  }, [state]);

  // A different (or no) token: drop every cached answer of the previous user. A new token for the
  // same user (after a password change) keeps them: it is the same person, still signed in.
  const previous = useRef(token);
  useEffect(() => {
    if (previous.current === token) return;
    const sameUser = sameSubject(previous.current, token);
    previous.current = token;
    if (sameUser) return;
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_QUERY_KEY[0] });
    queryClient.removeQueries({
      predicate: (q) => q.queryKey[0] === SESSION_QUERY_KEY[0] && q.queryKey[2] !== token,
    });
  }, [token, queryClient]);

  const valid = state.kind === 'valid';
  const info = useQuery({
    ...userInfoQuery(valid ? state.token : null),
    // Across a token rotation of the same user, keep showing the user (no loading screen).
    placeholderData: (prev, prevQuery) =>
      prevQuery && sameSubject(prevQuery.queryKey[2] as string | null, valid ? state.token : null)
        ? prev
        : undefined,
    enabled: valid,
    retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
  });

  const login = useCallback((t: string) => {
    signedOutByUser = false;
    setToken(t);
  }, []);
  const logout = useCallback(() => {
    signedOutByUser = true;
    clearToken();
    navigate('/');
  }, [navigate]);
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
    [queryClient],
  );

  const roles = valid ? state.roles : NO_ROLES;
  const value = useMemo<Session>(
    () => ({
      loading: valid && info.isPending && !info.isError,
      user: valid ? (info.data ?? null) : null,
      roles,
      isAdmin: isAdmin(roles),
      home: homePath(roles),
      error: valid && info.isError ? info.error : null,
      login,
      logout,
      refresh,
    }),
    [valid, info.isPending, info.isError, info.data, info.error, roles, login, logout, refresh],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/**
 * At start, with a valid stored token: asks for the user info at once, beside the page's chunks, rather
 * than once they have arrived (the session's query then finds it on its way).
 */
export function prefetchSession(queryClient: QueryClient): boolean {
  const state = readToken(getToken(), Date.now());
  if (state.kind !== 'valid') return false;
  void queryClient.prefetchQuery(userInfoQuery(state.token));
  return true;
}

/** The landing screen for these roles: an admin's home is the overview. */
export function homePath(roles: readonly Role[]): string {
  return isAdmin([...roles]) ? '/admin' : '/dashboard';
}

export function useSession(): Session {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession must be used inside <SessionProvider>');
  return ctx;
}

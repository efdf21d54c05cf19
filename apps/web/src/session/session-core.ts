import { type Role, rolesFromClaim } from '@simdock/contract';

/** What a stored token means right now (docs/product.md#session). Pure, so it is unit-tested. */
export type TokenState =
  | { kind: 'none' }
  | { kind: 'invalid' }
  | { kind: 'expired' }
  | {
      kind: 'valid';
      token: string;
      username: string | undefined;
      subject: string | undefined;
      roles: Role[];
      /** ms since epoch; null when the token carries no expiry. */
      expiresAt: number | null;
    };

export function readToken(token: string | null, nowMs: number): TokenState {
  if (!token) return { kind: 'none' };
  const claims = jwtClaims(token);
  if (!claims) return { kind: 'invalid' };
  const expiresAt = typeof claims.exp === 'number' ? claims.exp * 1000 : null;
  if (expiresAt !== null && expiresAt <= nowMs) return { kind: 'expired' };
  return {
    kind: 'valid',
    token,
    username: typeof claims.username === 'string' ? claims.username : undefined,
    subject: typeof claims.sub === 'string' ? claims.sub : undefined,
    roles: rolesFromClaim(claims.role),
    expiresAt,
  };
}

/**
 * A JWT's claims, unverified (the server verifies; the app only reads who and until when), or null
 * when the token is not a JWT with a JSON object payload. Hand-written to keep a JWT library off the
 * login route's bundle.
 */
export function jwtClaims(token: string): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const b64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(b64.padEnd(Math.ceil(b64.length / 4) * 4, '=')), (c) =>
      c.charCodeAt(0),
    );
    const claims: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return claims && typeof claims === 'object' && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** True when two valid tokens belong to the same user (a token rotated after a password change). */
export function sameSubject(a: string | null, b: string | null): boolean {
  if (!a || !b) return false;
  const x = readToken(a, Date.now());
  const y = readToken(b, Date.now());
  return x.kind === 'valid' && y.kind === 'valid' && x.subject !== undefined && x.subject === y.subject;
}

/** The login page's parameter naming the page to return to after signing in. */
export const NEXT_PARAM = 'next';

/**
 * The in-app path to return to after signing in, from /login's `next` parameter, or undefined. Only a
 * path of this site is accepted (never another origin: no open redirect), and never a signed-out page.
 */
export function safeNextPath(raw: string | null | undefined): string | undefined {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return undefined;
  // Control characters (URL parsing drops a tab or newline, which could hide a `//`) are refused.
  if ([...raw].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127)) return undefined;
  const base = 'https://app.invalid';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return undefined;
  }
  if (url.origin !== base) return undefined;
  if (/^\/(login|register|forgot-password|reset-password)?\/?$/i.test(url.pathname)) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

import { type Role, rolesFromClaim } from '@simdock/contract';
import { decodeJwt } from 'jose';

/** What a stored token means right now (spec §4). Pure, so it is unit-tested. */
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
  let claims: ReturnType<typeof decodeJwt>;
  try {
    claims = decodeJwt(token);
  } catch {
    return { kind: 'invalid' };
  }
  const expiresAt = typeof claims.exp === 'number' ? claims.exp * 1000 : null;
  if (expiresAt !== null && expiresAt <= nowMs) return { kind: 'expired' };
  return {
    kind: 'valid',
    token,
    username: typeof claims.username === 'string' ? claims.username : undefined,
    subject: claims.sub,
    roles: rolesFromClaim(claims.role),
    expiresAt,
  };
}

/** True when two valid tokens belong to the same user (a token rotated after a password change). */
export function sameSubject(a: string | null, b: string | null): boolean {
  if (!a || !b) return false;
  const x = readToken(a, Date.now());
  const y = readToken(b, Date.now());
  return x.kind === 'valid' && y.kind === 'valid' && x.subject !== undefined && x.subject === y.subject;
}

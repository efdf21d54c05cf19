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

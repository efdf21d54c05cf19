// `Authorization: Bearer <token>`: the scheme name is case-insensitive (RFC 7235 §2.1), so
// `bearer` and `BEARER` are the same scheme; the token is everything after the spaces.

/** The token of a Bearer `Authorization` header, or undefined (another scheme, or no token). */
export function bearerToken(header: string | undefined): string | undefined {
  const m = /^bearer[ \t]+(\S.*)$/i.exec((header ?? '').trim());
  return m ? m[1]!.trim() : undefined;
}

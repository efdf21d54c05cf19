import { describe, expect, it } from 'vitest';
import { claimsFor, fakeToken } from '../test/utils.tsx';
import { jwtClaims, readToken } from './session-core.ts';

const now = Date.now();

describe('readToken (docs/product.md#session)', () => {
  it('no token: signed out', () => {
    expect(readToken(null, now)).toEqual({ kind: 'none' });
    expect(readToken('', now)).toEqual({ kind: 'none' });
  });

  it('a token that is not a JWT is invalid', () => {
    expect(readToken('garbage', now).kind).toBe('invalid');
    expect(readToken('a.b.c', now).kind).toBe('invalid');
  });

  it('an expired token is expired', () => {
    const token = fakeToken({ ...claimsFor('ann'), exp: Math.floor(now / 1000) - 1 });
    expect(readToken(token, now).kind).toBe('expired');
  });

  it('expiry is exact to the second', () => {
    const exp = Math.floor(now / 1000) + 10;
    const token = fakeToken({ ...claimsFor('ann'), exp });
    expect(readToken(token, exp * 1000 - 1).kind).toBe('valid');
    expect(readToken(token, exp * 1000).kind).toBe('expired');
  });

  it('roles come from the role claim: a string or a list', () => {
    const one = readToken(fakeToken(claimsFor('ann', 'Admin9')), now);
    expect(one.kind === 'valid' && one.roles).toEqual(['Admin9']);
    const many = readToken(fakeToken(claimsFor('bob', ['User', 'SMS', 'Nope'])), now);
    expect(many.kind === 'valid' && many.roles).toEqual(['User', 'SMS']);
    const none = readToken(fakeToken({ ...claimsFor('cy'), role: undefined }), now);
    expect(none.kind === 'valid' && none.roles).toEqual([]);
  });

  it('keeps the username, subject and expiry', () => {
    const claims = claimsFor('ann');
    const state = readToken(fakeToken(claims), now);
    expect(state).toMatchObject({
      kind: 'valid',
      username: 'ann',
      subject: 'id-ann',
      expiresAt: claims.exp * 1000,
    });
  });
});

describe('jwtClaims', () => {
  const part = (text: string) =>
    btoa(String.fromCharCode(...new TextEncoder().encode(text)))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  it('reads a base64url payload, unicode included', () => {
    expect(jwtClaims(`h.${part('{"username":"Đức ~?>","sub":"1"}')}.s`)).toEqual({
      username: 'Đức ~?>',
      sub: '1',
    });
  });
  it('refuses what is not a JWT with a JSON object payload', () => {
    for (const token of [
      '',
      'a.b',
      'a.b.c.d',
      `h.${part('[1]')}.s`,
      `h.${part('"x"')}.s`,
      `h.${part('null')}.s`,
      'h.!!.s',
      `h..s`,
    ]) {
      expect(jwtClaims(token), token).toBeNull();
    }
  });
});

describe('sameSubject', () => {
  it('is true only for two valid tokens of one user', async () => {
    const { sameSubject } = await import('./session-core.ts');
    const make = (sub: string) =>
      `e30.${btoa(JSON.stringify({ sub, exp: Math.floor(Date.now() / 1000) + 60 })).replace(/=+$/, '')}.x`;
    expect(sameSubject(make('u1'), make('u1'))).toBe(true);
    expect(sameSubject(make('u1'), make('u2'))).toBe(false);
    expect(sameSubject(null, make('u1'))).toBe(false);
    expect(sameSubject('garbage', make('u1'))).toBe(false);
  });
});

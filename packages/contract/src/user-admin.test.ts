import { describe, expect, it } from 'vitest';
import { parseBalance, validateAdminUser } from './user-admin.ts';

describe('parseBalance', () => {
  it.each([
    [0, '0.00'],
    [12.5, '12.50'],
    ['7', '7.00'],
    [' 3.05 ', '3.05'],
    ['007.1', '7.10'],
    ['9.9775', '9.9775'],
    [1.005, '1.005'],
  ])('reads %j as %s', (v, out) => {
    expect(parseBalance(v)).toBe(out);
  });

  it.each([
    [-1],
    ['-1'],
    [1.00005],
    ['1.00005'],
    [0.1 + 0.2],
    ['abc'],
    [''],
    [Number.NaN],
    [Infinity],
    [null],
    [true],
  ])('refuses %j', (v) => {
    expect(parseBalance(v)).toBeUndefined();
  });
});

describe('validateAdminUser (docs/product.md#forms: admin user edit)', () => {
  const good = { username: 'bob_1', email: 'bob@example.com', roles: ['User'], balance: 10, isNew: false };

  it('accepts a valid edit, several roles and a blank balance', () => {
    expect(validateAdminUser(good)).toEqual({});
    expect(validateAdminUser({ ...good, roles: ['Admin9', 'Staff', 'User', 'SMS'], balance: '' })).toEqual(
      {},
    );
  });

  it.each([
    [{ username: '' }, { username: 'usernameRequired' }],
    [{ username: '  ' }, { username: 'usernameRequired' }],
    [{ username: 'a b' }, { username: 'usernameFormat' }],
    [{ email: 'nope' }, { email: 'invalidEmail' }],
    [{ email: '' }, { email: 'invalidEmail' }],
    [{ roles: ['Root'] }, { roles: 'invalidRoles' }],
    [{ roles: ['User', 'admin9'] }, { roles: 'invalidRoles' }],
    [{ roles: [] }, { roles: 'rolesRequired' }],
    [{ balance: -5 }, { balance: 'balanceInvalid' }],
    [{ balance: '1.23456' }, { balance: 'balanceInvalid' }],
    [{ balance: 'ten' }, { balance: 'balanceInvalid' }],
    [{ password: 'short' }, { password: 'passwordTooShort' }],
    [{ isNew: true }, { password: 'passwordRequired' }],
  ])('flags %j', (patch, errors) => {
    expect(validateAdminUser({ ...good, ...patch })).toEqual(errors);
  });

  it('needs a password only for a new user', () => {
    expect(validateAdminUser({ ...good, isNew: true, password: 'password-1' })).toEqual({});
    expect(validateAdminUser({ ...good, password: '' })).toEqual({});
  });
});

import { describe, expect, it } from 'vitest';
import {
  coerceNumber,
  gatewayFormProblem,
  gatewayFormProblems,
  isGatewayValid,
  isOnline,
  normalizeLogin,
  normalizeMac,
  validateChangePassword,
  validateLogin,
  validateRegister,
  validateService,
} from './rules.ts';

describe('validateRegister (docs/product.md#forms)', () => {
  const good = {
    username: 'alice_01',
    email: 'a@example.com',
    password: 'password',
    confirmPassword: 'password',
  };

  it('accepts a valid form', () => {
    expect(validateRegister(good)).toEqual({});
  });

  it.each([
    [{ username: '' }, { username: 'usernameRequired' }],
    [{ username: 'ab' }, { username: 'usernameFormat' }],
    [{ username: 'abcdefghijklmnopq' }, { username: 'usernameFormat' }],
    [{ username: 'has space' }, { username: 'usernameFormat' }],
    [{ username: 'dash-no' }, { username: 'usernameFormat' }],
    [{ username: 'abc' }, {}],
    [{ username: 'a'.repeat(16) }, {}],
    [{ email: '' }, { email: 'emailRequired' }],
    [{ email: 'nope' }, { email: 'emailInvalid' }],
    [{ email: 'a@b' }, { email: 'emailInvalid' }],
    [{ email: 'a b@c.de' }, { email: 'emailInvalid' }],
    [
      { password: '', confirmPassword: '' },
      { password: 'passwordRequired', confirmPassword: 'confirmRequired' },
    ],
    [{ password: '1234567', confirmPassword: '1234567' }, { password: 'passwordTooShort' }],
    [{ confirmPassword: '' }, { confirmPassword: 'confirmRequired' }],
    [{ confirmPassword: 'different' }, { confirmPassword: 'passwordsMismatch' }],
  ])('%j → %j', (patch, expected) => {
    expect(validateRegister({ ...good, ...patch })).toEqual(expected);
  });

  it('skips the confirmation when the caller has none (the server call)', () => {
    expect(validateRegister({ username: 'bob', email: 'b@b.co', password: 'password' })).toEqual({});
  });
});

describe('validateLogin', () => {
  it('needs both fields; a blank username is missing, a password is taken as typed', () => {
    expect(validateLogin({ username: 'alice', password: 'x' })).toEqual({});
    expect(validateLogin({ username: '  ', password: '' })).toEqual({
      username: 'usernameRequired',
      password: 'passwordRequired',
    });
    expect(validateLogin({ username: 'alice', password: ' ' })).toEqual({});
  });
});

describe('normalizeLogin', () => {
  it('trims and lower-cases', () => {
    expect(normalizeLogin('  Alice@Example.COM ')).toBe('alice@example.com');
  });
});

describe('validateChangePassword', () => {
  it.each([
    [{ oldPass: '', newPass: 'password1', confirmPass: 'password1' }, { oldPass: 'oldPasswordRequired' }],
    [{ oldPass: 'x', newPass: 'short', confirmPass: 'short' }, { newPass: 'passwordTooShort' }],
    [
      { oldPass: 'x', newPass: 'password1', confirmPass: 'password2' },
      { confirmPass: 'newPasswordMismatch' },
    ],
    [{ oldPass: 'x', newPass: 'password1', confirmPass: 'password1' }, {}],
    [{ oldPass: 'x', newPass: 'password1' }, {}],
  ])('%j → %j', (form, expected) => {
    expect(validateChangePassword(form)).toEqual(expected);
  });
});

describe('gateway rules', () => {
  it.each([
    ['00:30:F1:01:02:03', '00:30:f1:01:02:03'],
    ['00-30-f1-01-02-03', '00:30:f1:01:02:03'],
    ['0030f1010203', '00:30:f1:01:02:03'],
    [' 00:30:f1:01:02:03 ', '00:30:f1:01:02:03'],
    ['00:30-f1:01:02:03', undefined],
    ['00:30:f1:01:02', undefined],
    ['00:30:f1:01:02:0g', undefined],
    ['', undefined],
  ])('normalizeMac(%s) → %s', (mac, expected) => {
    expect(normalizeMac(mac)).toBe(expected);
  });

  const g = { name: 'Box 1', url: 'http://10.0.0.5:80', mac: '00-30-f1-01-02-03', userName: 'root' };
  it.each([
    [{}, true],
    [{ name: ' ' }, false],
    [{ userName: '' }, false],
    [{ url: 'not a url' }, false],
    [{ url: 'ftp://x' }, false],
    [{ mac: 'zz' }, false],
    [{ mode: 'udp' as const }, false],
  ])('isGatewayValid(%j) → %s', (patch, ok) => {
    expect(isGatewayValid({ ...g, ...patch })).toBe(ok);
  });

  const phone = {
    name: 'Pixel',
    url: 'http://10.0.0.9:8080',
    mac: '',
    userName: 'sms',
    kind: 'smsgate' as const,
  };
  it.each([
    [{ mode: 'local' }, []],
    // A phone has no MAC to check.
    [{ mode: 'local', mac: 'zz' }, []],
    [{}, ['mode']],
    // Not blamed for a blank URL before the mode says whether one is needed.
    [{ url: '' }, ['mode']],
    [{ mode: 'cloud', url: '' }, []],
    [{ mode: 'private', url: '' }, ['url']],
    [{ mode: 'local', url: '' }, ['url']],
    [{ mode: 'cloud', url: 'not a url' }, ['url']],
    [{ name: '', userName: ' ' }, ['name', 'mode', 'userName']],
    // A GoIP box's mode is not a phone's.
    [{ mode: 'web' }, ['mode']],
  ] as const)('gatewayFormProblems(phone + %j) → %j', (patch, problems) => {
    expect(gatewayFormProblems({ ...phone, ...patch })).toEqual(problems);
    expect(gatewayFormProblem({ ...phone, ...patch })).toBe(problems[0] ?? null);
  });

  const goip = { name: 'GoIP-4', url: '', mac: '', userName: 'goip', kind: 'goip' } as const;
  it.each([
    // Its lines connect to the platform: no URL and no MAC needed; a URL given must be http(s).
    [{}, []],
    [{ url: 'http://192.168.1.20' }, []],
    [{ url: 'udp://192.168.1.20' }, ['url']],
    [{ mac: 'zz' }, []],
    // The box ID names its lines inside `;`/`:`-separated packets.
    [{ userName: 'goip box' }, ['userName']],
    [{ userName: 'goip;1' }, ['userName']],
    [{ userName: 'shop-4.b_1' }, []],
    [{ userName: '' }, ['userName']],
    [{ mode: 'udp' }, []],
    // The web pages are the only way to the box: their URL and login are needed.
    [{ mode: 'web' }, ['url', 'webUser']],
    [{ mode: 'web', url: 'http://192.168.1.20', webUser: 'admin' }, []],
    [{ mode: 'web', url: 'http://192.168.1.20', webUser: ' ' }, ['webUser']],
    // A phone's mode is not a GoIP box's.
    [{ mode: 'cloud' }, ['mode']],
  ] as const)('gatewayFormProblems(GoIP + %j) → %j', (patch, problems) => {
    expect(gatewayFormProblems({ ...goip, ...patch })).toEqual(problems);
  });

  it('lists every bad field of a box, in the form order', () => {
    expect(gatewayFormProblems({ name: '', url: 'x', mac: 'zz', userName: '' })).toEqual([
      'name',
      'url',
      'mac',
      'userName',
    ]);
  });

  it('is online for 3 minutes after the last report', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(isOnline('2026-11-22T09:57:00Z', now)).toBe(true);
    expect(isOnline('2026-11-22T09:56:59Z', now)).toBe(false);
    expect(isOnline(null, now)).toBe(false);
  });
});

describe('service rules', () => {
  const s = { name: 'Telegram', code: 'tg', price: 1, stock: 0, rentTimeMinutes: 20 };
  it.each([
    [{}, {}],
    [{ name: ' ' }, { name: 'nameRequired' }],
    [{ code: '' }, { code: 'codeRequired' }],
    [{ price: 0 }, { price: 'priceInvalid' }],
    [{ price: -1 }, { price: 'priceInvalid' }],
    [{ stock: -1 }, { stock: 'stockInvalid' }],
    [{ rentTimeMinutes: -1 }, { rentTimeMinutes: 'rentTimeInvalid' }],
  ])('%j → %j', (patch, expected) => {
    expect(validateService({ ...s, ...patch })).toEqual(expected);
  });

  it.each([
    ['12', 12],
    [' 3.5 ', 3.5],
    ['abc', 0],
    ['', 0],
    [undefined, 0],
    [7, 7],
  ])('coerceNumber(%j) → %s', (v, n) => {
    expect(coerceNumber(v)).toBe(n);
  });
});

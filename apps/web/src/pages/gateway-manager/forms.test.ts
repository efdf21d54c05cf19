import type { ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_GATEWAY_FORM,
  type GatewayFormValues,
  gatewayFormResolver,
  invalidGatewayFields,
  isGatewayFormValid,
  toGatewayInput,
} from './forms.ts';

const valid: GatewayFormValues = {
  name: 'Rack 1',
  url: 'http://192.168.1.50',
  mac: '00-1A-2B-3C-4D-5E',
  userName: 'root',
  password: 'root',
  isEnable: true,
};

describe('gateway form', () => {
  it('is valid with every field, a URL and a MAC of six hex pairs', () => {
    expect(isGatewayFormValid(valid, false)).toBe(true);
    expect(invalidGatewayFields(valid, false)).toEqual([]);
    expect(isGatewayFormValid({ ...valid, mac: '001a2b3c4d5e' }, false)).toBe(true);
    expect(isGatewayFormValid({ ...valid, mac: '00:1a:2b:3c:4d:5e' }, false)).toBe(true);
  });

  it('names the fields that break the rule', () => {
    expect(invalidGatewayFields(EMPTY_GATEWAY_FORM, false)).toEqual([
      'name',
      'url',
      'mac',
      'userName',
      'password',
    ]);
    const bad = { ...valid, url: 'not a url', mac: '00:1a:2b:3c:4d' };
    expect(isGatewayFormValid(bad, false)).toBe(false);
    expect(invalidGatewayFields(bad, false)).toEqual(['url', 'mac']);
    expect(isGatewayFormValid({ ...valid, name: '   ' }, true)).toBe(false);
  });

  it('needs a password to add, not to edit (blank keeps the stored one)', () => {
    const noPass = { ...valid, password: ' ' };
    expect(isGatewayFormValid(noPass, false)).toBe(false);
    expect(invalidGatewayFields(noPass, false)).toEqual(['password']);
    expect(isGatewayFormValid(noPass, true)).toBe(true);
    expect(toGatewayInput(noPass, 'g1')).toEqual({
      id: 'g1',
      name: 'Rack 1',
      url: 'http://192.168.1.50',
      mac: '00-1A-2B-3C-4D-5E',
      userName: 'root',
      isEnable: true,
    });
  });

  it('sends trimmed fields, no id when adding, the password when typed', () => {
    expect(toGatewayInput({ ...valid, name: ' Rack 1 ', isEnable: false })).toEqual({
      name: 'Rack 1',
      url: 'http://192.168.1.50',
      mac: '00-1A-2B-3C-4D-5E',
      userName: 'root',
      password: 'root',
      isEnable: false,
    });
  });
});

describe('gatewayFormResolver', () => {
  const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<GatewayFormValues>;

  it('puts each broken field under its own text; nothing when the form holds', async () => {
    const bad = await gatewayFormResolver(false)(EMPTY_GATEWAY_FORM, undefined, options);
    expect(bad.errors).toEqual({
      name: { type: 'text', message: 'rule.nameRequired' },
      url: { type: 'text', message: 'gateways.urlHint' },
      mac: { type: 'text', message: 'gateways.macHint' },
      userName: { type: 'text', message: 'rule.usernameRequired' },
      password: { type: 'text', message: 'rule.passwordRequired' },
    });
    expect(await gatewayFormResolver(true)({ ...valid, password: '' }, undefined, options)).toEqual({
      values: { ...valid, password: '' },
      errors: {},
    });
  });
});

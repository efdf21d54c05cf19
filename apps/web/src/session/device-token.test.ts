import { beforeEach, describe, expect, it } from 'vitest';
import {
  DEVICE_TOKENS_KEPT,
  deviceTokenFor,
  keepDeviceToken,
  parseStored,
  withToken,
} from './device-token.ts';

describe('device tokens', () => {
  beforeEach(() => localStorage.clear());

  it('remembers a token per username, case-insensitively, and returns it for the next sign-in', () => {
    expect(deviceTokenFor('Ann')).toBeUndefined();
    keepDeviceToken('Ann', 'tok-a');
    keepDeviceToken('bob', 'tok-b');
    expect(deviceTokenFor('ann')).toBe('tok-a');
    expect(deviceTokenFor(' BOB ')).toBe('tok-b');
    keepDeviceToken('ann', 'tok-a2');
    expect(deviceTokenFor('ann')).toBe('tok-a2');
    keepDeviceToken('ann', undefined);
    expect(deviceTokenFor('ann')).toBe('tok-a2');
  });

  it('keeps the most recent accounts only', () => {
    let map = {};
    for (let i = 0; i < DEVICE_TOKENS_KEPT + 3; i++) map = withToken(map, `u${i}`, `t${i}`);
    expect(Object.keys(map)).toHaveLength(DEVICE_TOKENS_KEPT);
    expect(map).not.toHaveProperty('u0');
    expect(map).toHaveProperty(`u${DEVICE_TOKENS_KEPT + 2}`);
  });

  it('ignores a broken stored value', () => {
    expect(parseStored('not json')).toEqual({});
    expect(parseStored('[1,2]')).toEqual({});
    expect(parseStored('{"a":"x","b":3}')).toEqual({ a: 'x' });
    localStorage.setItem('simdockDeviceTokens', '{broken');
    expect(deviceTokenFor('a')).toBeUndefined();
  });
});

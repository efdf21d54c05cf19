import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login } from '../pages/login/api.ts';
import { mockFetch } from '../test/utils.tsx';
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

describe('the sign-in call', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('sends the stored device token of the account and keeps the one the answer carries', async () => {
    const bodies: Record<string, unknown>[] = [];
    mockFetch((_path, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      return { body: { token: 'jwt', deviceToken: 'dev-1' } };
    });
    await login({ username: 'carol', password: 'carol-pass-1' });
    expect(bodies[0]).toEqual({ username: 'carol', password: 'carol-pass-1' });
    expect(deviceTokenFor('carol')).toBe('dev-1');
    await login({ username: 'carol', password: 'carol-pass-1' });
    expect(bodies[1]).toEqual({ username: 'carol', password: 'carol-pass-1', deviceToken: 'dev-1' });
    // Another account on this browser has no token yet.
    await login({ username: 'dan', password: 'dan-pass-12' });
    expect(bodies[2]).toEqual({ username: 'dan', password: 'dan-pass-12' });
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deviceTokenFor } from '../../session/device-token.ts';
import { mockFetch } from '../../test/utils.tsx';
import { login } from './api.ts';

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

import { describe, expect, it } from 'vitest';
import { transportError } from './transport.ts';

describe('transportError', () => {
  it('transport errors say why, never the password', () => {
    const timeout = transportError(Object.assign(new Error('x'), { name: 'TimeoutError' }), 1500, 'pw');
    expect(timeout.kind).toBe('timeout');
    expect(timeout.message).toMatch(/1\.5 s/);
    const refused = transportError(
      Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
      1000,
      'pw',
    );
    expect(refused).toMatchObject({ kind: 'network', message: 'connection refused' });
    const leaky = transportError(new Error('bad secretpw here'), 1000, 'secretpw');
    expect(leaky.message).toBe('bad [redacted] here');
  });
});

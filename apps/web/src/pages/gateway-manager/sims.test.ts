import { describe, expect, it } from 'vitest';
import { simFixture } from './sim-fixture.ts';
import { lockBody, simCounts, simsHintKey, simulateBody } from './sims.ts';

const sim = simFixture;
const locked = { locked: true, kind: 'manual', reason: 'Spam', since: null, until: null, by: 'ann' } as const;

describe('the SIM panel', () => {
  it('counts usable and locked SIMs; a locked SIM is never usable, even when the answer says so', () => {
    expect(simCounts(undefined)).toEqual({ usable: 0, locked: 0 });
    expect(
      simCounts([
        sim('1'),
        sim('2', { usable: false }),
        sim('3', { lock: locked }),
        sim('4', { lock: locked, usable: false }),
      ]),
    ).toEqual({ usable: 1, locked: 2 });
  });

  it("hints at a phone's numbers: always in Cloud/Private mode, in Local mode while one is missing", () => {
    const sims = [sim('1'), sim('2', { number: null })];
    expect(simsHintKey({ kind: 'ejoin', mode: null }, sims)).toBeUndefined();
    expect(simsHintKey({ kind: 'smsgate', mode: 'cloud' }, [sim('1')])).toBe('gateways.simsPhoneHint');
    expect(simsHintKey({ kind: 'smsgate', mode: 'local' }, sims)).toBe('gateways.simsPhoneHintLocal');
    expect(simsHintKey({ kind: 'smsgate', mode: 'local' }, [sim('1')])).toBeUndefined();
    expect(simsHintKey({ kind: 'smsgate', mode: 'local' }, undefined)).toBeUndefined();
  });

  it("hints at a GoIP box's numbers while a line with a SIM reports none", () => {
    const goip = { kind: 'goip', mode: null } as const;
    expect(simsHintKey(goip, [sim('1'), sim('2', { number: null })])).toBe('gateways.simsGoipHint');
    expect(simsHintKey(goip, [sim('1')])).toBeUndefined();
    // A line without a SIM has no number to set.
    expect(simsHintKey(goip, [sim('1'), sim('2', { number: null, state: 'empty' })])).toBeUndefined();
    expect(simsHintKey(goip, undefined)).toBeUndefined();
  });

  it('sends a lock with its trimmed reason and the chosen duration; an unlock or "until unlocked" with none', () => {
    expect(lockBody('g1', '1.01', { reason: ' Spam ', minutes: '60' }, false)).toEqual({
      gatewayId: 'g1',
      port: '1.01',
      reason: 'Spam',
      minutes: 60,
    });
    expect(lockBody('g1', '1.01', { reason: 'Spam', minutes: '' }, false)).toEqual({
      gatewayId: 'g1',
      port: '1.01',
      reason: 'Spam',
    });
    expect(lockBody('g1', '1.01', { reason: 'ok now', minutes: '60' }, true)).toEqual({
      gatewayId: 'g1',
      port: '1.01',
      reason: 'ok now',
    });
  });

  it('sends a simulated SMS with the sender trimmed and a blank text as none', () => {
    expect(simulateBody('g1', '2', { from: ' Verify ', text: ' Code 123 ' })).toEqual({
      gatewayId: 'g1',
      port: '2',
      from: 'Verify',
      text: ' Code 123 ',
    });
    expect(simulateBody('g1', '2', { from: 'Verify', text: '   ' }).text).toBe('');
  });
});

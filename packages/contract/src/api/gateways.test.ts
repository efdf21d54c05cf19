import { describe, expect, it } from 'vitest';
import { isBlockedSimState, isUsableSimState, SIM_STATES, SimState, simStateText } from './gateways.ts';

describe("the platform's SIM states", () => {
  it('ready and busy are usable, blocked alone locks', () => {
    expect(SIM_STATES.filter(isUsableSimState)).toEqual(['ready', 'busy']);
    expect(SIM_STATES.filter(isBlockedSimState)).toEqual(['blocked']);
  });

  it("reads the device's words when it gave some, else the state's name", () => {
    expect(simStateText('blocked', 'Registration failed')).toBe('Registration failed');
    expect(simStateText('ready', null)).toBe('Registered');
    expect(simStateText('empty', null)).toBe('No SIM');
  });

  it("are words: a device's number is no state", () => {
    expect(SimState.safeParse('ready').success).toBe(true);
    expect(SimState.safeParse(3).success).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { plainReason } from './reason-text.ts';

describe('plainReason: a device reason in the platform words, the device text kept as detail', () => {
  it.each([
    ['6 Timeout; 21 Short message transfer rejected', 'recipientRefused'],
    ['5 SIM Unregistered', 'simCannotSend'],
    ['6 Timeout', 'simCannotSend'],
    ['2 Invalid Port', 'simCannotSend'],
    ['16 Too Many Task', 'gatewayBusy'],
    ['7 Server Error', 'gatewayError'],
    ['6 Timeout; 42 Congestion', 'networkBusy'],
    ['6 Timeout; 27 Destination out of order', 'unreachable'],
    // A carrier cause whose number we do not know: its words decide.
    ['6 Timeout; 99 Subscriber barred by operator', 'recipientRefused'],
    // A carrier cause with neither a known number nor known words: the task code decides.
    ['6 Timeout; 111 Protocol error', 'simCannotSend'],
    ['3 USSD Expected; 111 Protocol error', 'gatewayError'],
  ])('%s → %s', (text, kind) => {
    expect(plainReason(text)).toEqual({ kind, detail: text });
  });

  it("keeps the platform's own sentences as they are, and nothing for no reason", () => {
    const own = 'No result from the gateway within 30 minutes.';
    expect(plainReason(own)).toEqual({ kind: null, detail: own });
    expect(plainReason('The recipient opted out (STOP).')).toEqual({
      kind: null,
      detail: 'The recipient opted out (STOP).',
    });
    expect(plainReason(null)).toBeNull();
    expect(plainReason('  ')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { plainReason, reasonColumns } from './failure-reason.ts';

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
    // A phone's send results (the SMSGate app): never the code itself on a screen.
    ['Send result: RESULT_ERROR_GENERIC_FAILURE (Generic failure cause)', 'phoneFailed'],
    ['Send result: RESULT_ERROR_RADIO_OFF (Radio off)', 'simCannotSend'],
    ['Send result: RESULT_ERROR_NO_SERVICE', 'simCannotSend'],
    ['Send result: RESULT_NETWORK_REJECT', 'recipientRefused'],
    ['No SIMs found', 'simCannotSend'],
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

describe("reasonColumns: the CSV export's reason and detail", () => {
  it("writes the plain sentence, and the device's text apart", () => {
    expect(reasonColumns('Send result: RESULT_ERROR_GENERIC_FAILURE (Generic failure cause)')).toEqual({
      reason: 'The phone could not send it',
      detail: 'Send result: RESULT_ERROR_GENERIC_FAILURE (Generic failure cause)',
    });
    expect(reasonColumns('6 Timeout; 21 Short message transfer rejected')).toEqual({
      reason: "The recipient's network refused it",
      detail: '6 Timeout; 21 Short message transfer rejected',
    });
    expect(reasonColumns('No result from the gateway within 30 minutes.')).toEqual({
      reason: 'No result from the gateway within 30 minutes.',
      detail: '',
    });
    expect(reasonColumns(null)).toEqual({ reason: '', detail: '' });
  });
});

import { describe, expect, it } from 'vitest';
import { sendResults, taskOutcome } from './ejoin.outcomes.ts';

// The Ejoin task codes in the platform's words: what the dispatcher does with each answer depends
// only on these outcomes (docs/devices-ejoin.md#task-codes, #report-reasons).

describe('send answers', () => {
  it.each([
    [0, 'OK', 'accepted'],
    [13, 'Duplicated TaskId', 'accepted'],
    [2, 'Invalid Port', 'sim_cannot_send'],
    [5, 'SIM Unregistered', 'sim_cannot_send'],
    [6, 'Timeout', 'sim_cannot_send'],
    [4, 'Pending USSD', 'device_busy'],
    [10, 'Pending Transaction', 'device_busy'],
    [16, 'Too Many Task', 'device_busy'],
    [1, 'Invalid User', 'account_refused'],
    [14, 'Unauthorized', 'account_refused'],
    [3, 'Invalid Request', 'recipient_refused'],
    [-1, 'garbled', 'recipient_refused'],
  ] as const)('code %i (%s) is %s, with the device words kept', (code, reason, outcome) => {
    expect(taskOutcome(9, code, reason)).toEqual({ tid: 9, outcome, deviceText: `${code} ${reason}` });
  });
});

describe('status reports', () => {
  it('give each success and failure row as a result; 5 and 6 blame the SIM, the others the message', () => {
    const results = sendResults([
      {
        tid: 3,
        sending: 0,
        sent: 1,
        failed: 3,
        unsent: 0,
        sdr: [{ index: 0, number: '15550000001', port: '1.01', ts: 1 }],
        fdr: [
          {
            index: 1,
            number: '15550000002',
            port: '1.01',
            ts: 2,
            reasonCode: 6,
            reason: '6 Timeout',
            carrierReason: '',
          },
          {
            index: 2,
            number: '15550000003',
            port: '2.01',
            ts: 3,
            reasonCode: 21,
            reason: '21 Short message transfer rejected',
            carrierReason: 'Barred',
          },
          {
            index: 3,
            number: '15550000004',
            port: '2.01',
            ts: 4,
            reasonCode: null,
            reason: '',
            carrierReason: '',
          },
        ],
      },
    ]);
    expect(results).toEqual([
      { tid: 3, outcome: 'delivered', number: '15550000001', port: '1.01', deviceText: '' },
      { tid: 3, outcome: 'sim_cannot_send', number: '15550000002', port: '1.01', deviceText: '6 Timeout' },
      {
        tid: 3,
        outcome: 'failed',
        number: '15550000003',
        port: '2.01',
        deviceText: '21 Short message transfer rejected; Barred',
      },
      { tid: 3, outcome: 'failed', number: '15550000004', port: '2.01', deviceText: 'Failed' },
    ]);
  });
});

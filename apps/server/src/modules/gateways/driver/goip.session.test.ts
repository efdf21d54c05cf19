import { describe, expect, it } from 'vitest';
import { parseDevicePacket } from './goip.protocol.ts';
import {
  DEFAULT_SESSION_CONFIG,
  type RecipientOutcome,
  type SessionState,
  type SessionStep,
  startSession,
  stepSession,
} from './goip.session.ts';

// The bulk send session, driven by device packets as they come off the wire and by time-outs.

const { answerTimeoutMs, waitTimeoutMs } = DEFAULT_SESSION_CONFIG;
const RECIPIENTS = [
  { telid: 1, number: '15550000001' },
  { telid: 2, number: '15550000002' },
  { telid: 3, number: '15550000003' },
];

/** A session run: device packets (text) and time-outs (a number: ms after the previous event). */
function run(script: (string | number)[], recipients = RECIPIENTS, text = 'Hi') {
  let now = 1000;
  const first = startSession({ sendid: 7, password: 'pw', text, recipients }, now);
  let state: SessionState = first.state;
  const sent = [...first.send];
  const outcomes = [...first.outcomes];
  for (const e of script) {
    let step: SessionStep;
    if (typeof e === 'number') {
      now += e;
      step = stepSession(state, { type: 'timeout', now });
    } else {
      now += 1;
      step = stepSession(state, { type: 'packet', packet: parseDevicePacket(e), now });
    }
    state = step.state;
    sent.push(...step.send);
    outcomes.push(...step.outcomes);
  }
  return { state, sent, outcomes };
}

const accepted = (telid: number, smsNo: number | null = null): RecipientOutcome => ({
  telid,
  outcome: 'accepted',
  smsNo,
  confirmed: true,
  deviceText: 'OK',
});

/** Every recipient has exactly one outcome. */
function expectOnePerRecipient(outcomes: RecipientOutcome[], recipients = RECIPIENTS) {
  expect(outcomes.map((o) => o.telid).sort()).toEqual(recipients.map((r) => r.telid).sort());
}

describe('a session', () => {
  it('goes MSG, PASSWORD, one SEND per recipient, DONE', () => {
    const r = run(['PASSWORD 7', 'SEND 7', 'OK 7 1 101', 'OK 7 2 102', 'OK 7 3']);
    expect(r.sent).toEqual([
      'MSG 7 2 Hi',
      'PASSWORD 7 pw',
      'SEND 7 1 15550000001',
      'SEND 7 2 15550000002',
      'SEND 7 3 15550000003',
      'DONE 7',
    ]);
    expect(r.outcomes).toEqual([accepted(1, 101), accepted(2, 102), accepted(3)]);
    expect(r.state.phase).toBe('ended');
    expect(r.state.deadline).toBeNull();
  });

  it('sends the next SEND only after the device answered the current one', () => {
    const r = run(['PASSWORD 7', 'SEND 7']);
    expect(r.sent.filter((p) => p.startsWith('SEND'))).toEqual(['SEND 7 1 15550000001']);
    expect(r.state.deadline).toBe(1002 + answerTimeoutMs);
  });

  it('ignores other sessions, stale timers, late answers and repeats of SEND <sendid>', () => {
    const r = run(['PASSWORD 8', 'OK 8 1', 1, 'PASSWORD 7', 'SEND 7', 'SEND 7', 'OK 7 2', 'OK 7 1']);
    expect(r.sent).toEqual(['MSG 7 2 Hi', 'PASSWORD 7 pw', 'SEND 7 1 15550000001', 'SEND 7 2 15550000002']);
    expect(r.outcomes).toEqual([accepted(1)]);
  });

  it('counts MSG length in bytes', () => {
    expect(run([], RECIPIENTS, 'Grüße 👋').sent).toEqual(['MSG 7 12 Grüße 👋']);
  });
});

describe('WAIT', () => {
  it('never answers a WAIT with the same SEND; asks again once after the wait time-out', () => {
    const r = run(['PASSWORD 7', 'SEND 7', 'WAIT 7 1', 'WAIT 7 1', 'WAIT 7 1', waitTimeoutMs - 10]);
    expect(r.sent.filter((p) => p === 'SEND 7 1 15550000001')).toHaveLength(1);
    const again = run(['PASSWORD 7', 'SEND 7', 'WAIT 7 1', 'WAIT 7 1', waitTimeoutMs, 'OK 7 1 55', 'OK 7 2']);
    expect(again.sent.filter((p) => p === 'SEND 7 1 15550000001')).toHaveLength(2);
    expect(again.outcomes.slice(0, 2)).toEqual([accepted(1, 55), accepted(2)]);
  });

  it('after a second WAIT and silence: accepted unconfirmed, never a third SEND; the rest later', () => {
    const r = run([
      'PASSWORD 7',
      'SEND 7',
      'WAIT 7 1',
      waitTimeoutMs,
      'WAIT 7 1',
      'WAIT 7 1',
      waitTimeoutMs,
      99_999,
    ]);
    expect(r.sent.filter((p) => p.startsWith('SEND 7 1 '))).toHaveLength(2);
    expect(r.sent.at(-1)).toBe('DONE 7');
    expect(r.outcomes).toEqual([
      { telid: 1, outcome: 'accepted', smsNo: null, confirmed: false, deviceText: 'WAIT, then no answer' },
      {
        telid: 2,
        outcome: 'device_busy',
        smsNo: null,
        confirmed: true,
        deviceText: 'the device did not answer',
      },
      {
        telid: 3,
        outcome: 'device_busy',
        smsNo: null,
        confirmed: true,
        deviceText: 'the device did not answer',
      },
    ]);
    expect(r.state.phase).toBe('ended');
  });
});

describe('errors', () => {
  it('errorstatus blames the line for that recipient and goes on', () => {
    const r = run(['PASSWORD 7', 'SEND 7', 'ERROR 7 1 errorstatus:3', 'OK 7 2', 'OK 7 3']);
    expect(r.outcomes[0]).toEqual({
      telid: 1,
      outcome: 'sim_cannot_send',
      smsNo: null,
      confirmed: true,
      deviceText: 'ERROR errorstatus:3',
    });
    expect(r.outcomes.slice(1)).toEqual([accepted(2), accepted(3)]);
  });

  it('an errorstatus without a telid is about the recipient in flight', () => {
    const r = run(['PASSWORD 7', 'SEND 7', 'OK 7 1', 'ERROR 7 errorstatus:2', 'OK 7 3']);
    expect(r.outcomes.map((o) => [o.telid, o.outcome])).toEqual([
      [1, 'accepted'],
      [2, 'sim_cannot_send'],
      [3, 'accepted'],
    ]);
  });

  it.each(['ERROR 7 2 GSM_LOGOUT', 'ERROR 7 GSM_LOGOUT'])(
    '%s: the line is not registered, every recipient left goes to another SIM',
    (error) => {
      const r = run(['PASSWORD 7', 'SEND 7', 'OK 7 1', error, 'OK 7 3']);
      expect(r.outcomes.map((o) => [o.telid, o.outcome])).toEqual([
        [1, 'accepted'],
        [2, 'sim_cannot_send'],
        [3, 'sim_cannot_send'],
      ]);
      expect(r.sent.filter((p) => p.startsWith('SEND'))).toHaveLength(2);
      expect(r.sent.at(-1)).toBe('DONE 7');
    },
  );

  it('a refused password refuses the account for all', () => {
    const r = run(['PASSWORD 7', 'ERROR 7 PASSWORD']);
    expect(r.outcomes.map((o) => o.outcome)).toEqual([
      'account_refused',
      'account_refused',
      'account_refused',
    ]);
    expect(r.sent.some((p) => p.startsWith('SEND'))).toBe(false);
  });

  it('a session-level error (a sixth session) is device_busy', () => {
    const r = run(['ERROR 7 too many sessions']);
    expect(r.outcomes.map((o) => o.outcome)).toEqual(['device_busy', 'device_busy', 'device_busy']);
    expectOnePerRecipient(r.outcomes);
  });

  it('a session-level error while a SEND is out does not make it retryable', () => {
    const r = run(['PASSWORD 7', 'SEND 7', 'ERROR 7 busy']);
    expect(r.outcomes.map((o) => [o.telid, o.outcome, o.confirmed])).toEqual([
      [1, 'accepted', false],
      [2, 'device_busy', true],
      [3, 'device_busy', true],
    ]);
  });
});

describe('time-outs', () => {
  it('asks for MSG and PASSWORD once more, then gives up with everything retryable', () => {
    const r = run([answerTimeoutMs, answerTimeoutMs]);
    expect(r.sent).toEqual(['MSG 7 2 Hi', 'MSG 7 2 Hi', 'DONE 7']);
    expect(r.outcomes.map((o) => o.outcome)).toEqual(['device_busy', 'device_busy', 'device_busy']);
    const p = run(['PASSWORD 7', answerTimeoutMs, 'PASSWORD 7', 'SEND 7', 'OK 7 1', 'OK 7 2', 'OK 7 3']);
    expect(p.sent.filter((x) => x === 'PASSWORD 7 pw')).toHaveLength(3);
    expect(p.outcomes).toEqual([accepted(1), accepted(2), accepted(3)]);
  });

  it('a SEND without any answer is asked once more, then accepted unconfirmed', () => {
    const r = run(['PASSWORD 7', 'SEND 7', answerTimeoutMs, answerTimeoutMs]);
    expect(r.sent.filter((p) => p.startsWith('SEND 7 1 '))).toHaveLength(2);
    expect(r.outcomes[0]).toMatchObject({ telid: 1, outcome: 'accepted', confirmed: false });
    expect(r.outcomes.slice(1).map((o) => o.outcome)).toEqual(['device_busy', 'device_busy']);
  });

  it('the device ending the session leaves nothing without an outcome', () => {
    const r = run(['PASSWORD 7', 'SEND 7', 'OK 7 1', 'DONE 7']);
    expect(r.outcomes.map((o) => [o.telid, o.outcome, o.confirmed])).toEqual([
      [1, 'accepted', true],
      [2, 'accepted', false],
      [3, 'device_busy', true],
    ]);
  });
});

describe('starting', () => {
  it('refuses a text over 3000 bytes for every recipient, sending nothing', () => {
    const r = run([], RECIPIENTS, '€'.repeat(1001));
    expect(r.sent).toEqual([]);
    expect(r.outcomes.map((o) => o.outcome)).toEqual([
      'recipient_refused',
      'recipient_refused',
      'recipient_refused',
    ]);
    expect(r.state.phase).toBe('ended');
  });

  it('refuses a number the device could not read and sends to the others', () => {
    const recipients = [
      { telid: 1, number: '1555 0001' },
      { telid: 2, number: '15550000002' },
    ];
    const r = run(['PASSWORD 7', 'SEND 7', 'OK 7 2'], recipients);
    expect(r.outcomes.map((o) => [o.telid, o.outcome])).toEqual([
      [1, 'recipient_refused'],
      [2, 'accepted'],
    ]);
    expect(r.sent.filter((p) => p.startsWith('SEND'))).toEqual(['SEND 7 2 15550000002']);
  });

  it('with no recipients sends nothing; a telid twice is the caller’s mistake', () => {
    expect(run([], []).sent).toEqual([]);
    expect(() => run([], [RECIPIENTS[0]!, RECIPIENTS[0]!])).toThrow(RangeError);
    expect(() => startSession({ sendid: -1, password: 'pw', text: 'Hi', recipients: [] }, 0)).toThrow(
      RangeError,
    );
    expect(() =>
      startSession({ sendid: 1, password: 'p\nw', text: 'Hi', recipients: RECIPIENTS }, 0),
    ).toThrow(RangeError);
  });
});

describe('every recipient gets exactly one outcome', () => {
  it.each([
    [['PASSWORD 7', 'SEND 7', 'OK 7 1', 'OK 7 1', 'ERROR 7 2 errorstatus:1', 'WAIT 7 3', 'OK 7 3', 'OK 7 3']],
    [['PASSWORD 7', 'SEND 7', 'WAIT 7 1', 'OK 7 1', 'ERROR 7 GSM_LOGOUT', 'ERROR 7 GSM_LOGOUT', 'DONE 7']],
    [['PASSWORD 7', 'SEND 7', 'OK 7 1', answerTimeoutMs, answerTimeoutMs, 'OK 7 2', 'ERROR 7 PASSWORD']],
    [['garbage', 'PASSWORD 7', 'ERROR 7 PASSWORD', 'SEND 7', 'OK 7 1', answerTimeoutMs]],
    [[answerTimeoutMs, 'PASSWORD 7', answerTimeoutMs, answerTimeoutMs, 'SEND 7', 'OK 7 1']],
  ])('%j', (script) => {
    const r = run(script);
    expectOnePerRecipient(r.outcomes);
    expect(r.state.phase).toBe('ended');
    expect(r.sent.filter((p) => p === 'DONE 7')).toHaveLength(1);
  });
});

// The GoIP bulk send session as a pure state machine: a state and an event (a device packet or a
// time-out) give the next state, the packets to send and the recipients' outcomes. The caller owns
// the socket, the timer (it wakes the machine at `deadline`), the ids and the pacing.
//
//   server MSG → device PASSWORD → server PASSWORD → device SEND →
//   per recipient: server SEND <telid> → device OK | ERROR | WAIT → … → server DONE
//
// Rules that keep an SMS from going out twice:
// - One SEND in flight at a time; the next leaves only after the device answered the current one.
// - WAIT ("still sending") is never answered with the same SEND. After `waitTimeoutMs` without a
//   final answer the SEND is repeated once, as a question: the device keeps the status of its last
//   numbers by telid, and the telid in flight is always its newest one. A second silence ends it.
// - Once a SEND has left, the recipient is never reported as retryable unless the device said it
//   failed: silence or WAIT after it ends as `accepted` with `confirmed: false` (the SMS may well
//   have gone out; a delivery report or people tell). Recipients whose SEND never left are
//   `device_busy`, so the platform sends them again later, on this line or another.
import type { SendOutcome } from './driver.ts';
import {
  type DevicePacket,
  donePacket,
  fitsMsg,
  isSendableNumber,
  MSG_TEXT_MAX_BYTES,
  msgPacket,
  passwordPacket,
  type SessionError,
  sendPacket,
} from './goip.protocol.ts';

export interface SessionConfig {
  /** How long to wait for an answer to MSG, PASSWORD or a SEND before asking once more. */
  answerTimeoutMs: number;
  /** After a WAIT, how long before asking about the same recipient once more. */
  waitTimeoutMs: number;
}

/**
 * Both well under the 90 s after which the device drops an idle session, and long enough for a
 * line that sends one SMS in 2–5 s.
 */
export const DEFAULT_SESSION_CONFIG: SessionConfig = { answerTimeoutMs: 10_000, waitTimeoutMs: 30_000 };

export interface SessionRecipient {
  /** The caller's id of this recipient within the session (unique per session). */
  telid: number;
  number: string;
}

export interface RecipientOutcome {
  telid: number;
  outcome: SendOutcome;
  /** The device's number of the sent SMS (from `OK`): its DELIVER report carries it. */
  smsNo: number | null;
  /**
   * False for an `accepted` the device never confirmed (a SEND left, then only WAIT or silence):
   * reported as taken so it is not sent twice.
   */
  confirmed: boolean;
  /** The device's words, or what happened, for people. */
  deviceText: string;
}

type RecipientStatus =
  /** Its SEND has not left. */
  | { kind: 'pending' }
  /** Its SEND left `asks` times (1 or 2); the device said WAIT when `waited`. */
  | { kind: 'asked'; asks: number; waited: boolean }
  | { kind: 'answered' };

interface Recipient extends SessionRecipient {
  status: RecipientStatus;
}

/** Waiting for the device's PASSWORD request, for its SEND (ready), sending, or over. */
export type SessionPhase = 'awaitPassword' | 'awaitSend' | 'sending' | 'ended';

export interface SessionState {
  readonly sendid: number;
  readonly password: string;
  readonly text: string;
  readonly config: SessionConfig;
  readonly phase: SessionPhase;
  readonly recipients: readonly Readonly<Recipient>[];
  /** Index of the recipient whose SEND is in flight (phase 'sending'). */
  readonly current: number | null;
  /** Whether the packet awaited in 'awaitPassword'/'awaitSend' was already asked for twice. */
  readonly retried: boolean;
  /** When the caller must wake the machine with a time-out (clock ms); null when ended. */
  readonly deadline: number | null;
}

export type SessionEvent =
  | { type: 'packet'; packet: DevicePacket; now: number }
  /** The caller's timer: nothing happens before `deadline` (a stale timer is harmless). */
  | { type: 'timeout'; now: number };

export interface SessionStep {
  state: SessionState;
  /** Packets for the device, in order. */
  send: string[];
  /** Outcomes decided by this step; over a session every recipient gets exactly one. */
  outcomes: RecipientOutcome[];
}

/**
 * Opens a session: the MSG, or — when nothing can be sent — an ended session with an outcome for
 * every recipient. Throws RangeError on the caller's mistakes (ids that are not non-negative
 * integers, a telid twice).
 */
export function startSession(
  input: { sendid: number; password: string; text: string; recipients: readonly SessionRecipient[] },
  now: number,
  config: SessionConfig = DEFAULT_SESSION_CONFIG,
): SessionStep {
  // The session's own packets are written once here so that a bad sendid or password throws now,
  // in the caller, never later in a socket handler.
  passwordPacket(input.sendid, input.password);
  donePacket(input.sendid);
  const telids = new Set(input.recipients.map((r) => r.telid));
  if (telids.size !== input.recipients.length) throw new RangeError('telids must be unique');
  const refused: RecipientOutcome[] = [];
  const recipients: Recipient[] = [];
  for (const r of input.recipients) {
    if (!Number.isSafeInteger(r.telid) || r.telid < 0) throw new RangeError('telid must be an integer');
    // A number the device cannot read would break the SEND line: no SIM would change that.
    if (isSendableNumber(r.number)) recipients.push({ ...r, status: { kind: 'pending' } });
    else refused.push(outcome(r.telid, 'recipient_refused', 'not a phone number'));
  }
  const state: SessionState = {
    sendid: input.sendid,
    password: input.password,
    text: input.text,
    config,
    phase: 'awaitPassword',
    recipients,
    current: null,
    retried: false,
    deadline: now + config.answerTimeoutMs,
  };
  if (!fitsMsg(input.text)) {
    const why = `text over ${MSG_TEXT_MAX_BYTES} bytes`;
    return {
      state: { ...state, phase: 'ended', recipients: [], deadline: null },
      send: [],
      outcomes: [...refused, ...recipients.map((r) => outcome(r.telid, 'recipient_refused', why))],
    };
  }
  if (recipients.length === 0) {
    return { state: { ...state, phase: 'ended', deadline: null }, send: [], outcomes: refused };
  }
  return { state, send: [msgPacket(input.sendid, input.text)], outcomes: refused };
}

/** The next step of a session. Packets of other sessions, and anything after the end, change nothing. */
export function stepSession(state: SessionState, event: SessionEvent): SessionStep {
  const none: SessionStep = { state, send: [], outcomes: [] };
  if (state.phase === 'ended') return none;
  if (event.type === 'timeout') {
    return state.deadline !== null && event.now >= state.deadline ? onTimeout(state, event.now) : none;
  }
  const p = event.packet;
  if (!('sendid' in p) || p.sendid !== state.sendid) return none;
  const now = event.now;
  switch (p.type) {
    case 'password':
      // Asked again (our PASSWORD was lost, or our MSG went twice): the same answer, no SMS involved.
      if (state.phase === 'awaitSend')
        return { ...none, send: [passwordPacket(state.sendid, state.password)] };
      if (state.phase !== 'awaitPassword') return none;
      return {
        state: { ...state, phase: 'awaitSend', retried: false, deadline: now + state.config.answerTimeoutMs },
        send: [passwordPacket(state.sendid, state.password)],
        outcomes: [],
      };
    case 'send':
      // A repeated `SEND <sendid>` (our PASSWORD twice) must not start the recipients again.
      if (state.phase !== 'awaitSend') return none;
      return nextRecipient({ ...state, phase: 'sending', retried: false }, now, []);
    case 'ok':
      return answer(state, p.telid, now, outcome(p.telid, 'accepted', 'OK', p.smsNo));
    case 'wait':
      return onWait(state, p.telid, now);
    case 'error':
      return onError(state, p, now);
    case 'done':
      // The device closed the session: what is left is decided as at a time-out.
      return end(state, 'device_busy', 'the device ended the session', false);
    default:
      return none;
  }
}

function outcome(
  telid: number,
  o: SendOutcome,
  deviceText: string,
  smsNo: number | null = null,
  confirmed = true,
): RecipientOutcome {
  return { telid, outcome: o, smsNo, confirmed, deviceText };
}

function setStatus(state: SessionState, index: number, status: RecipientStatus): Recipient[] {
  return state.recipients.map((r, i) => (i === index ? { ...r, status } : r));
}

/** The SEND of the next pending recipient, or DONE when none is left. */
function nextRecipient(state: SessionState, now: number, outcomes: RecipientOutcome[]): SessionStep {
  const index = state.recipients.findIndex((r) => r.status.kind === 'pending');
  if (index < 0) {
    return {
      state: { ...state, phase: 'ended', current: null, deadline: null },
      send: [donePacket(state.sendid)],
      outcomes,
    };
  }
  const r = state.recipients[index]!;
  return {
    state: {
      ...state,
      recipients: setStatus(state, index, { kind: 'asked', asks: 1, waited: false }),
      current: index,
      deadline: now + state.config.answerTimeoutMs,
    },
    send: [sendPacket(state.sendid, r.telid, r.number)],
    outcomes,
  };
}

/** A final answer for the recipient in flight; answers for any other telid are late and ignored. */
function answer(state: SessionState, telid: number, now: number, result: RecipientOutcome): SessionStep {
  const index = state.current;
  if (state.phase !== 'sending' || index === null || state.recipients[index]!.telid !== telid) {
    return { state, send: [], outcomes: [] };
  }
  const next = { ...state, recipients: setStatus(state, index, { kind: 'answered' }), current: null };
  return nextRecipient(next, now, [result]);
}

/** WAIT: no SEND now; the next question only at the wait time-out (set once per question). */
function onWait(state: SessionState, telid: number, now: number): SessionStep {
  const index = state.current;
  if (state.phase !== 'sending' || index === null) return { state, send: [], outcomes: [] };
  const r = state.recipients[index]!;
  if (r.telid !== telid || r.status.kind !== 'asked' || r.status.waited) {
    return { state, send: [], outcomes: [] };
  }
  return {
    state: {
      ...state,
      recipients: setStatus(state, index, { ...r.status, waited: true }),
      deadline: now + state.config.waitTimeoutMs,
    },
    send: [],
    outcomes: [],
  };
}

/**
 * Errors, in the platform's words:
 * - `ERROR <sendid> <telid> errorstatus:<n>` (or other words for a telid): the line failed to send
 *   to this number → `sim_cannot_send`. The sources define no errorstatus values; a GSM send error
 *   on these boxes is mostly the line's (credit, network, module), another SIM may succeed, and
 *   the platform bounds the attempts. The raw words are kept.
 * - `GSM_LOGOUT` (with or without a telid): the line is not registered → `sim_cannot_send` for
 *   every recipient not yet answered: the device says it sent nothing, so another SIM tries them.
 * - `ERROR <sendid> PASSWORD` → `account_refused` for all.
 * - Any other session-level ERROR (a sixth session, an unknown sendid) → `device_busy`: later.
 */
function onError(state: SessionState, e: SessionError, now: number): SessionStep {
  const words = `ERROR ${e.text}`.trim();
  if (e.reason === 'gsm_logout') return end(state, 'sim_cannot_send', words, true);
  // `errorstatus` without a telid can only be about the recipient in flight.
  const current = state.current === null ? undefined : state.recipients[state.current]?.telid;
  const telid = e.telid ?? (e.reason === 'errorstatus' ? current : undefined);
  if (telid !== undefined) return answer(state, telid, now, outcome(telid, 'sim_cannot_send', words));
  if (e.reason === 'password') return end(state, 'account_refused', words, true);
  return end(state, 'device_busy', words, false);
}

/**
 * Ends the session with an outcome for every recipient not yet answered: `rest` for those whose
 * SEND never left, and for the one in flight when `deviceSaysUnsent` (the device said it failed);
 * otherwise the one in flight is an unconfirmed `accepted` (it may have gone out).
 */
function end(state: SessionState, rest: SendOutcome, text: string, deviceSaysUnsent: boolean): SessionStep {
  const outcomes: RecipientOutcome[] = [];
  for (const r of state.recipients) {
    if (r.status.kind === 'answered') continue;
    if (r.status.kind === 'asked' && !deviceSaysUnsent) {
      const why = r.status.waited ? 'WAIT, then no answer' : 'no answer';
      outcomes.push(outcome(r.telid, 'accepted', why, null, false));
    } else outcomes.push(outcome(r.telid, rest, text));
  }
  return {
    state: {
      ...state,
      phase: 'ended',
      recipients: state.recipients.map((r) => ({ ...r, status: { kind: 'answered' } })),
      current: null,
      deadline: null,
    },
    // DONE frees the device's session slot (at most 5 per box); a device that already dropped
    // the session ignores it.
    send: [donePacket(state.sendid)],
    outcomes,
  };
}

/** MSG and PASSWORD are asked for once more (nothing has been sent yet); a SEND too, as above. */
function onTimeout(state: SessionState, now: number): SessionStep {
  const { answerTimeoutMs } = state.config;
  if (state.phase === 'awaitPassword' || state.phase === 'awaitSend') {
    if (state.retried) return end(state, 'device_busy', 'the device did not answer', false);
    const again =
      state.phase === 'awaitPassword'
        ? msgPacket(state.sendid, state.text)
        : passwordPacket(state.sendid, state.password);
    return {
      state: { ...state, retried: true, deadline: now + answerTimeoutMs },
      send: [again],
      outcomes: [],
    };
  }
  const index = state.current;
  const r = index === null ? undefined : state.recipients[index];
  if (index === null || r === undefined || r.status.kind !== 'asked' || r.status.asks >= 2) {
    return end(state, 'device_busy', 'the device did not answer', false);
  }
  return {
    state: {
      ...state,
      recipients: setStatus(state, index, { kind: 'asked', asks: 2, waited: false }),
      deadline: now + answerTimeoutMs,
    },
    send: [sendPacket(state.sendid, r.telid, r.number)],
    outcomes: [],
  };
}

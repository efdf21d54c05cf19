import type { ApiMessage, SmsGateMessageState, SmsGateState } from '@simdock/contract';

// SimDock's message states in SMSGate's words (docs/devices-smsgate.md, "Message state"): a
// queued or claimed message is Pending, one a device took is Sent, SimDock's delivered (the device
// sent it and reported success) is Delivered, failed and cancelled are Failed.

/** The device id SMSGate clients see for SimDock (one virtual device: the whole fleet). */
export const SIMDOCK_DEVICE_ID = 'simdock';

export function recipientState(status: ApiMessage['status']): SmsGateState {
  switch (status) {
    case 'queued':
      return 'Pending';
    case 'sending':
      return 'Processed';
    case 'sent':
      return 'Sent';
    case 'delivered':
    case 'received':
      return 'Delivered';
    default:
      return 'Failed';
  }
}

/**
 * SMSGate's aggregate over recipients: any Pending → Pending; any Processed → Processed; all
 * Delivered → Delivered; all Failed → Failed; otherwise Sent.
 */
export function aggregateState(states: readonly SmsGateState[]): SmsGateState {
  if (states.includes('Pending')) return 'Pending';
  if (states.includes('Processed')) return 'Processed';
  if (states.length > 0 && states.every((s) => s === 'Delivered')) return 'Delivered';
  if (states.length > 0 && states.every((s) => s === 'Failed')) return 'Failed';
  return 'Sent';
}

/** The SMSGate state of one send (its messages, one per recipient) under the caller's id. */
export function messageState(id: string, messages: readonly ApiMessage[]): SmsGateMessageState {
  const recipients = messages.map((m) => {
    const state = recipientState(m.status);
    return {
      phoneNumber: `+${m.phoneNumber.replace(/^\+/, '')}`,
      state,
      ...(state === 'Failed'
        ? { error: m.reason ?? (m.status === 'cancelled' ? 'Cancelled' : 'Failed') }
        : {}),
    };
  });
  const state = aggregateState(recipients.map((r) => r.state));
  const states: Record<string, string> = {};
  const first = messages[0];
  if (first) {
    states.Pending = first.createdAt;
    const sent = messages
      .map((m) => m.sentAt)
      .filter((t): t is string => t !== null)
      .sort()[0];
    if (sent) states.Sent = sent;
    const done = messages
      .map((m) => m.doneAt)
      .filter((t): t is string => t !== null)
      .sort()
      .at(-1);
    if (done && (state === 'Delivered' || state === 'Failed')) states[state] = done;
  }
  return { id, deviceId: SIMDOCK_DEVICE_ID, state, isHashed: false, isEncrypted: false, recipients, states };
}

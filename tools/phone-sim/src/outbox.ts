// The messages sent through the phone and their walk Pending → Processed → Sent → Delivered (or
// Failed), one step every `stepMs`, raising sms:sent / sms:delivered / sms:failed on the way. What
// happens to each recipient is the test's choice (`setOutcome`).
import { aggregate, partsCount, type State, type WebhookEvent } from './model.ts';
import type { SlotConfig } from './options.ts';
import type { Scheduler } from './scheduler.ts';

/** What happens to one recipient of a send. */
export type Outcome =
  | 'delivered'
  /** Sent, and no final delivery report ever comes: the recipient stays Sent. */
  | 'sent'
  | 'failed'
  | { failed: string }
  | { deliverAfterMs: number }
  /** Sent (the carrier took it), then its delivery report fails: `sms:sent`, later `sms:failed`. */
  | { failAfterSentMs: number; reason?: string };

export interface OutgoingSms {
  messageId: string;
  phoneNumber: string;
  simNumber: number | null;
  text: string | null;
}

export type OutcomeFn = (sms: OutgoingSms) => Outcome;

export interface RecipientRecord {
  phoneNumber: string;
  state: State;
  error?: string;
}

export interface MessageRecord {
  id: string;
  deviceId: string;
  text: string | null;
  data: { data: string; port: number } | null;
  simNumber: number | null;
  withDeliveryReport: boolean;
  isEncrypted: boolean;
  priority: number;
  createdAt: number;
  recipients: RecipientRecord[];
  states: Partial<Record<State, string>>;
}

export interface OutboxContext {
  slots: (SlotConfig | null)[];
  stepMs: number;
  scheduler: Scheduler;
  /** The phone's clock as payloads show it. */
  time(ms?: number): string;
  fire(event: WebhookEvent, payload: unknown): void;
}

const DEFAULT_FAILURE = 'Send result: RESULT_ERROR_GENERIC_FAILURE (Generic failure cause)';
/** The reason of a failed delivery report (the carrier took the SMS, the handset never got it). */
const LATE_FAILURE = 'Delivery report: STATUS_FAILED (the recipient was not reached)';

export function stateOfMessage(m: MessageRecord): State {
  return aggregate(m.recipients.map((x) => x.state));
}

export class Outbox {
  private readonly messages = new Map<string, MessageRecord>();
  private outcome: OutcomeFn = () => 'delivered';

  constructor(private readonly c: OutboxContext) {}

  setOutcome(fn: OutcomeFn): void {
    this.outcome = fn;
  }

  get(id: string): MessageRecord | undefined {
    return this.messages.get(id);
  }

  has(id: string): boolean {
    return this.messages.has(id);
  }

  /** The stored records themselves (callers that hand them out copy them). */
  all(): MessageRecord[] {
    return [...this.messages.values()];
  }

  /** Copies of every message, for tests and the control API. */
  snapshot(): MessageRecord[] {
    return this.all().map(copyMessage);
  }

  /** Stores a new message; `send` starts its walk (a message of another phone stays Pending). */
  add(m: MessageRecord, send: { simError: string | null } | null): void {
    this.messages.set(m.id, m);
    if (send) this.run(m, send.simError);
  }

  private setState(m: MessageRecord, r: RecipientRecord, state: State, error?: string): void {
    r.state = state;
    if (error !== undefined) r.error = error;
    const agg = stateOfMessage(m);
    if (m.states[agg] === undefined) m.states[agg] = this.c.time();
  }

  private run(m: MessageRecord, simError: string | null): void {
    const step = this.c.stepMs;
    this.c.scheduler.later(step, () => {
      for (const r of m.recipients) this.setState(m, r, 'Processed');
      for (const r of m.recipients) {
        const o: Outcome = simError
          ? { failed: simError }
          : this.outcome({
              messageId: m.id,
              phoneNumber: r.phoneNumber,
              simNumber: m.simNumber,
              text: m.text,
            });
        this.c.scheduler.later(step, () => this.transmit(m, r, o));
      }
    });
  }

  private transmit(m: MessageRecord, r: RecipientRecord, o: Outcome): void {
    const time = () => this.c.time();
    const sender = this.senderNumber(m);
    if (o === 'failed' || (typeof o === 'object' && 'failed' in o)) {
      const reason = o === 'failed' ? DEFAULT_FAILURE : o.failed;
      this.setState(m, r, 'Failed', reason);
      this.c.fire('sms:failed', { ...shared(m, r, sender), failedAt: time(), reason });
      return;
    }
    const parts = m.text === null ? 1 : partsCount(m.text);
    this.setState(m, r, 'Sent');
    this.c.fire('sms:sent', { ...shared(m, r, sender), partsCount: parts, sentAt: time() });
    if (!m.withDeliveryReport || o === 'sent') return;
    if (typeof o === 'object' && 'failAfterSentMs' in o) {
      const reason = o.reason ?? LATE_FAILURE;
      this.c.scheduler.later(o.failAfterSentMs, () => {
        this.setState(m, r, 'Failed', reason);
        this.c.fire('sms:failed', { ...shared(m, r, sender), failedAt: time(), reason });
      });
      return;
    }
    const delay = typeof o === 'object' ? o.deliverAfterMs : this.c.stepMs;
    this.c.scheduler.later(delay, () => {
      this.setState(m, r, 'Delivered');
      // One sms:delivered per part of a multipart SMS.
      for (let i = 0; i < parts; i++) {
        this.c.fire('sms:delivered', { ...shared(m, r, sender), deliveredAt: time() });
      }
    });
  }

  private senderNumber(m: MessageRecord): string | null {
    if (m.simNumber === null) return null;
    return this.c.slots[m.simNumber - 1]?.phoneNumber ?? null;
  }
}

/** The fields every sms:* payload of one recipient carries. */
function shared(m: MessageRecord, r: RecipientRecord, sender: string | null) {
  return {
    messageId: m.id,
    sender,
    recipient: r.phoneNumber,
    phoneNumber: r.phoneNumber,
    simNumber: m.simNumber,
  };
}

function copyMessage(m: MessageRecord): MessageRecord {
  return {
    ...m,
    data: m.data ? { ...m.data } : null,
    recipients: m.recipients.map((r) => ({ ...r })),
    states: { ...m.states },
  };
}

// What arrives on the phone: an SMS (sms:received, kept for the control API) or a downloaded MMS
// (mms:downloaded with every part in base64).
import { incomingId, type WebhookEvent } from './model.ts';
import type { SlotConfig } from './options.ts';

export interface IncomingRecord {
  messageId: string;
  simNumber: number;
  sender: string;
  recipient: string | null;
  text: string;
  receivedAt: string;
}

/** One part of an incoming MMS, as the app hands it over in mms:downloaded. */
export interface MmsPart {
  contentType: string;
  name: string;
  data: Uint8Array;
}

/** An MMS as it arrives: on SIM number `slot`, from `from`, at `at` (default now). */
export interface IncomingMms {
  slot: number;
  from: string;
  subject?: string;
  body?: string;
  parts: MmsPart[];
  at?: number;
}

export interface InboxContext {
  slots: (SlotConfig | null)[];
  time(ms?: number): string;
  fire(event: WebhookEvent, payload: unknown): void;
}

export class Inbox {
  private readonly incoming: IncomingRecord[] = [];

  constructor(private readonly c: InboxContext) {}

  received(): IncomingRecord[] {
    return this.incoming.map((m) => ({ ...m }));
  }

  /** An SMS arrives on SIM number `slot` (1-based, as `simNumber`); raises sms:received. */
  injectSms(m: { slot: number; from: string; text: string; at?: number }): string {
    const sim = this.sim(m.slot);
    const at = m.at ?? Date.now();
    const rec: IncomingRecord = {
      messageId: incomingId(m.from, at, m.slot, m.text),
      simNumber: m.slot,
      sender: m.from,
      recipient: sim.phoneNumber,
      text: m.text,
      receivedAt: this.c.time(at),
    };
    this.incoming.push(rec);
    this.c.fire('sms:received', {
      messageId: rec.messageId,
      message: rec.text,
      sender: rec.sender,
      recipient: rec.recipient,
      phoneNumber: rec.sender,
      simNumber: rec.simNumber,
      receivedAt: rec.receivedAt,
    });
    return rec.messageId;
  }

  /**
   * An MMS arrives on SIM number `slot` and finishes downloading: raises mms:downloaded with each
   * part's bytes in base64 (layout parts such as SMIL included, as the app sends them).
   */
  injectMms(m: IncomingMms): string {
    const sim = this.sim(m.slot);
    const at = m.at ?? Date.now();
    const body = m.body ?? '';
    const messageId = incomingId(m.from, at, m.slot, `${m.subject ?? ''}|${body}`);
    this.c.fire('mms:downloaded', {
      messageId,
      sender: m.from,
      recipient: sim.phoneNumber,
      phoneNumber: m.from,
      simNumber: m.slot,
      subject: m.subject ?? null,
      body,
      attachments: m.parts.map((p, i) => ({
        partId: i + 1,
        contentType: p.contentType,
        name: p.name,
        size: p.data.length,
        data: Buffer.from(p.data).toString('base64'),
      })),
      receivedAt: this.c.time(at),
    });
    return messageId;
  }

  private sim(slot: number): SlotConfig {
    const sim = this.c.slots[slot - 1];
    if (!sim) throw new Error(`no SIM in slot ${slot}`);
    return sim;
  }
}

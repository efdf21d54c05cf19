import { createHmac } from 'node:crypto';
import {
  type MessageEventBody,
  smsSegments,
  WEBHOOK_EVENTS,
  type WebhookEventName,
  type WebhookFormat,
} from '@simdock/contract';
import type { MessageEvent } from '../../context.ts';
import { sha256 } from '../../crypto.ts';
import type { QueuedEvent } from './webhooks.queries.ts';

// The bodies of webhook events, as pure functions: SimDock's own (`MessageEventBody`) and SMSGate's
// (for tools made for SMSGate), their ids and signatures.

/**
 * The event's own id, from what it is about (its ref): the same in every retry and redelivery and
 * for every URL, so a receiver de-duplicates on it. Migration 020 gives logged deliveries the same.
 */
export function eventIdOf(ref: string): string {
  return `evt_${sha256(ref).slice(0, 24)}`;
}

/** SimDock's signature header: `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`. */
export function sign(secret: string, timestamp: number | string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** SMSGate's `X-Signature`: hex HMAC-SHA256 over the raw body followed by the `X-Timestamp` text. */
export function signSmsgate(secret: string, timestamp: number | string, body: string): string {
  return createHmac('sha256', secret).update(`${body}${timestamp}`).digest('hex');
}

/** What a URL of this format can receive (SMSGate's webhooks know only messages). */
export function eventsOfFormat(format: WebhookFormat): readonly WebhookEventName[] {
  return format === 'smsgate' ? WEBHOOK_EVENTS.filter((e) => e.startsWith('message.')) : WEBHOOK_EVENTS;
}

/** The ref of a messaging event: one delivery per event and URL. */
export function refOf(e: MessageEvent): string {
  return `${e.type}:${e.type === 'campaign.finished' ? e.campaignId : e.messageId}`;
}

/** SimDock's body of a messaging event. */
export function messageEventBody(e: MessageEvent, id: string): MessageEventBody {
  const data: MessageEventBody['data'] =
    e.type === 'campaign.finished'
      ? {
          campaignId: e.campaignId ?? null,
          campaignRef: e.campaignRef ?? null,
          delivered: e.counts?.delivered ?? 0,
          failed: e.counts?.failed ?? 0,
          cancelled: e.counts?.cancelled ?? 0,
        }
      : {
          messageId: e.messageId,
          campaignId: e.campaignId ?? null,
          campaignRef: e.campaignRef ?? null,
          conversationId: e.conversationId ?? null,
          direction: e.direction,
          phoneNumber: e.phoneNumber,
          simNumber: e.simNumber ?? null,
          text: e.text,
          status: e.status,
          reason: e.reason ?? null,
        };
  return { id, event: e.type, createdAt: e.at.toISOString(), data };
}

/** A messaging event as the webhooks module queues it. */
export function queuedEvent(e: MessageEvent): QueuedEvent {
  const ref = refOf(e);
  const id = eventIdOf(ref);
  return {
    userId: e.userId,
    event: e.type,
    ref,
    eventId: id,
    // An outgoing message's events go out in order; a reply or a campaign's end stands alone.
    orderKey: e.direction === 'out' && e.messageId ? e.messageId : null,
    body: JSON.stringify(messageEventBody(e, id)),
  };
}

const SMSGATE_EVENT: Partial<Record<string, string>> = {
  'message.received': 'sms:received',
  'message.sent': 'sms:sent',
  'message.delivered': 'sms:delivered',
  'message.failed': 'sms:failed',
};

/** SMSGate writes numbers in international form. */
const plus = (n: string | null | undefined): string | null => (n ? (n.startsWith('+') ? n : `+${n}`) : null);

/** SMSGate's `deviceId`: SimDock is the one "device" behind the API. */
export const SMSGATE_DEVICE_ID = 'simdock';

/**
 * SMSGate's webhook body for a SimDock event body (stored as queued), or null when SMSGate has no
 * such event. `messageId` is the SMSGate-level message: the caller's reference of the send, else
 * `c<campaign id>` (a chat message, which has no send: its own id `o<n>`; a reply: `i<n>`).
 * `simNumber` is SMSGate's SIM slot, which SimDock does not have: null (the SIM's number is
 * `sender`/`recipient` when known).
 */
export function smsgateBody(stored: MessageEventBody, webhookId: string): string | null {
  const event = SMSGATE_EVENT[stored.event];
  if (!event) return null;
  const d = stored.data;
  const incoming = d.direction === 'in';
  const remote = plus(d.phoneNumber);
  const ours = plus(d.simNumber);
  const base = {
    messageId: incoming ? d.messageId : (d.campaignRef ?? (d.campaignId ? `c${d.campaignId}` : d.messageId)),
    sender: incoming ? remote : ours,
    recipient: incoming ? ours : remote,
    phoneNumber: remote,
    simNumber: null,
  };
  const at = stored.createdAt;
  const payload =
    stored.event === 'message.received'
      ? { ...base, message: d.text ?? '', receivedAt: at }
      : stored.event === 'message.sent'
        ? { ...base, partsCount: Math.max(1, smsSegments(d.text ?? '').segments), sentAt: at }
        : stored.event === 'message.delivered'
          ? { ...base, deliveredAt: at }
          : { ...base, failedAt: at, reason: d.reason ?? 'Failed' };
  return JSON.stringify({ deviceId: SMSGATE_DEVICE_ID, event, id: stored.id, webhookId, payload });
}

/** The test event in SMSGate's words: a `system:ping` with a passing health. */
export function smsgatePing(eventId: string, webhookId: string): string {
  return JSON.stringify({
    deviceId: SMSGATE_DEVICE_ID,
    event: 'system:ping',
    id: eventId,
    webhookId,
    payload: { health: { status: 'pass', checks: {} } },
  });
}

/** SMSGate's webhook headers (lower case, as Node sends them). */
export const SMSGATE_HEADERS = { signature: 'x-signature', timestamp: 'x-timestamp' } as const;

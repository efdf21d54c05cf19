// SMSGate's webhook registrations (one event per webhook, under the program's own id) as the
// user's webhooks in SMSGate's format: deliveries carry SMSGate's bodies and X-Signature.

import { randomBytes } from 'node:crypto';
import type { SmsGateWebhook, WebhookEventName } from '@simdock/contract';
import { SMSGATE_WEBHOOK_EVENTS } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { badInput, notFound } from '../../errors.ts';
import { addWebhookFor, listWebhooksOf, removeWebhookOf } from '../webhooks/index.ts';

/** SMSGate's event names and SimDock's events they stand for. */
const EVENT_OF: Record<(typeof SMSGATE_WEBHOOK_EVENTS)[number], WebhookEventName> = {
  'sms:received': 'message.received',
  'sms:sent': 'message.sent',
  'sms:delivered': 'message.delivered',
  'sms:failed': 'message.failed',
};
const SMSGATE_OF = Object.fromEntries(Object.entries(EVENT_OF).map(([k, v]) => [v, k])) as Partial<
  Record<WebhookEventName, string>
>;

const isSmsGateEvent = (e: string): e is keyof typeof EVENT_OF => Object.hasOwn(EVENT_OF, e);

export async function smsgateWebhooks(ctx: AppContext, userId: string): Promise<SmsGateWebhook[]> {
  const all = await listWebhooksOf(ctx, userId);
  return all
    .filter((w) => w.format === 'smsgate')
    .map((w) => ({
      id: w.clientId ?? w.id,
      url: w.url,
      event: SMSGATE_OF[w.events[0]!] ?? w.events[0]!,
      deviceId: null,
    }));
}

/** Registers (or, under an id already used, replaces) a webhook for one SMSGate event. */
export async function smsgateRegisterWebhook(
  ctx: AppContext,
  userId: string,
  body: { id?: string | undefined; url: string; event: string },
): Promise<SmsGateWebhook> {
  if (!isSmsGateEvent(body.event)) {
    throw badInput(`SimDock sends these events: ${SMSGATE_WEBHOOK_EVENTS.join(', ')}.`, 'event');
  }
  const id = body.id ?? randomBytes(16).toString('base64url').slice(0, 21);
  const w = await addWebhookFor(ctx, userId, {
    url: body.url,
    events: [EVENT_OF[body.event]],
    format: 'smsgate',
    id,
  });
  return { id: w.clientId ?? w.id, url: w.url, event: body.event, deviceId: null };
}

export async function smsgateDeleteWebhook(ctx: AppContext, userId: string, id: string): Promise<void> {
  if (!(await removeWebhookOf(ctx, userId, id))) throw notFound('webhook not found', 'webhook_not_found');
}

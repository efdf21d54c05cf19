import { z } from 'zod';
import { boundedText } from '../limits.ts';

// SMSGate's third-party API as SimDock serves it (docs/api.md): tools made for SMSGate send
// through SimDock by changing their base URL to `<SimDock>/3rdparty/v1`, with Basic auth as the
// SimDock username and an API key. Field names and states are SMSGate's.

/** SMSGate's message states (its aggregate and per-recipient `state`). */
export const SMSGATE_STATES = ['Pending', 'Processed', 'Sent', 'Delivered', 'Failed'] as const;
export const SmsGateState = z.enum(SMSGATE_STATES);
export type SmsGateState = z.infer<typeof SmsGateState>;

/** The events a webhook can be registered for through this API. */
export const SMSGATE_WEBHOOK_EVENTS = ['sms:received', 'sms:sent', 'sms:delivered', 'sms:failed'] as const;

/** POST /3rdparty/v1/message (and /messages). Unknown fields are ignored, as SMSGate does. */
export const SmsGateSendBody = z
  .object({
    /** The caller's message id (≤ 36): a repeat answers 409. */
    id: boundedText(36, 'id').pipe(z.string().min(1)).optional(),
    message: z.string().max(65535).optional(),
    textMessage: z.object({ text: z.string().max(65535) }).optional(),
    dataMessage: z.unknown().optional(),
    phoneNumbers: z.array(z.string().max(128)).min(1).max(100),
    simNumber: z.number().int().min(1).max(3).nullable().optional(),
    withDeliveryReport: z.boolean().optional(),
    isEncrypted: z.boolean().optional(),
    ttl: z.number().optional(),
    validUntil: z.string().optional(),
    priority: z.number().optional(),
    deviceId: boundedText(64, 'deviceId').optional(),
  })
  .loose();
export type SmsGateSendBody = z.input<typeof SmsGateSendBody>;

export const SmsGateRecipient = z.object({
  phoneNumber: z.string(),
  state: SmsGateState,
  error: z.string().nullable().optional(),
});

export const SmsGateMessageState = z.object({
  id: z.string(),
  deviceId: z.string(),
  state: SmsGateState,
  isHashed: z.boolean(),
  isEncrypted: z.boolean(),
  recipients: z.array(SmsGateRecipient),
  /** Each state reached, and when (ISO). */
  states: z.record(z.string(), z.string()),
});
export type SmsGateMessageState = z.infer<typeof SmsGateMessageState>;

// Ids in the path and the body obey the rules of every other text input (no NUL, no lone
// surrogate): they are looked up in the database, which refuses a NUL.
export const SmsGateMessageParams = z.object({ id: boundedText(36, 'id').pipe(z.string().min(1)) });

export const SmsGateWebhook = z.object({
  id: z.string(),
  url: z.string(),
  event: z.string(),
  deviceId: z.string().nullable().optional(),
});
export type SmsGateWebhook = z.infer<typeof SmsGateWebhook>;

export const SmsGateWebhookBody = z
  .object({
    id: boundedText(36, 'id').pipe(z.string().min(1)).optional(),
    url: boundedText(2048, 'url').pipe(z.string().min(1)),
    event: boundedText(64, 'event'),
    deviceId: boundedText(64, 'deviceId').optional(),
  })
  .loose();
export const SmsGateWebhookParams = z.object({ id: boundedText(200, 'id').pipe(z.string().min(1)) });

export const SmsGateHealth = z.object({
  status: z.enum(['pass', 'warn', 'fail']),
  version: z.string(),
  releaseId: z.number().int(),
  checks: z.record(z.string(), z.unknown()),
});

/** SMSGate's error body. */
export const SmsGateError = z.object({ message: z.string() });

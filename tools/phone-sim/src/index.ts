export { startFromArgs } from './cli.ts';
export type { ControlOutcome } from './control.ts';
export type { Mode, State, WebhookEvent } from './model.ts';
export { aggregate, maskSim, PREFIX, partsCount, phoneTime, sign } from './model.ts';
export type {
  IncomingRecord,
  MessageRecord,
  Outcome,
  OutcomeFn,
  OutgoingSms,
  PhoneSimOptions,
  RecipientRecord,
  SlotConfig,
} from './phone.ts';
export { PhoneSim, validateMessage } from './phone.ts';
export type { DeliveryRecord, RetryOptions, Webhook } from './webhooks.ts';

export { startFromArgs } from './cli.ts';
export type { ControlOutcome } from './control.ts';
export type { Mode, State, WebhookEvent } from './model.ts';
export { aggregate, maskSim, PREFIX, partsCount, phoneTime, sign } from './model.ts';
export type {
  IncomingRecord,
  MessageRecord,
  MmsPart,
  OtherDevice,
  Outcome,
  OutcomeFn,
  OutgoingSms,
  PhoneSimOptions,
  RecipientRecord,
  Settings,
  SlotConfig,
} from './phone.ts';
export { PhoneSim, validateMessage } from './phone.ts';
export { type Received, type Receiver, startReceiver } from './receiver.ts';
export type { DeliveryRecord, RetryOptions, Webhook } from './webhooks.ts';

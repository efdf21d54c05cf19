import { z } from 'zod';
import { boundedText, TEXT_LIMITS as L } from '../limits.ts';

export const OnlineStatus = z.enum(['Online', 'Offline']);

export const Gateway = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  mac: z.string(),
  userName: z.string(),
  isEnable: z.boolean(),
  totalSIM: z.number().int(),
  lastUpdate: z.string().nullable(),
  onlineStatus: OnlineStatus,
  /** Where the device must push; carries the gateway id and its secret (pushes have no credentials). */
  pushUrls: z.object({ status: z.string(), sms: z.string(), report: z.string() }),
});
export type Gateway = z.infer<typeof Gateway>;

export const GatewayInput = z.object({
  id: boundedText(L.id, 'Id').optional(),
  name: boundedText(L.gatewayName, 'Name'),
  url: boundedText(L.gatewayUrl, 'URL'),
  mac: boundedText(L.mac, 'MAC'),
  userName: boundedText(L.gatewayUserName, 'User name'),
  /** Write only; blank (or absent) on edit keeps the stored one. */
  password: boundedText(L.gatewayPassword, 'Password').optional(),
  isEnable: z.boolean().default(true),
});
export type GatewayInput = z.input<typeof GatewayInput>;

export const UpdateGatewayBody = z.object({ gateway: GatewayInput });
export const GatewayIdBody = z.object({ id: boundedText(L.id, 'Id') });

export const GatewaySettings = z.object({ gateways: z.array(Gateway), serverTime: z.string() });
export type GatewaySettings = z.infer<typeof GatewaySettings>;

export const Sim = z.object({
  port: z.string(),
  iccid: z.string().nullable(),
  imsi: z.string().nullable(),
  number: z.string().nullable(),
  numberSource: z.enum(['device', 'manual']).nullable(),
  operator: z.string().nullable(),
  signal: z.number().nullable(),
  state: z.number().int(),
  stateText: z.string(),
  usable: z.boolean(),
});
export type Sim = z.infer<typeof Sim>;

/** gatewayReport: the gateway with its SIM inventory as the last scan or push left it. */
export const GatewayReport = z.object({ gateway: Gateway, sims: z.array(Sim) });
export type GatewayReport = z.infer<typeof GatewayReport>;

export const SetSimNumberBody = z.object({
  gatewayId: boundedText(L.id, 'Gateway id'),
  port: boundedText(L.port, 'Port'),
  number: boundedText(L.phoneNumber, 'Number'),
});
/** The number is kept by the platform (by ICCID) even when the device could not store it. */
export const SetSimNumberResult = z.object({
  code: z.literal(1),
  msg: z.string(),
  sim: Sim,
  deviceUpdated: z.boolean(),
});
export type SetSimNumberResult = z.infer<typeof SetSimNumberResult>;

/** Device SIM states (`st`, research notes §2.1). */
export const SIM_STATE_TEXT: Record<number, string> = {
  0: 'No SIM',
  1: 'Idle SIM',
  2: 'Registering',
  3: 'Registered',
  4: 'Call connected',
  5: 'No balance / alarm',
  6: 'Registration failed',
  7: 'Locked by device',
  8: 'Locked by operator',
  9: 'SIM error',
  11: 'Card detected',
  12: 'User locked',
  13: 'Inter-calling',
  14: 'Inter-calling hold',
  15: 'Accessing mobile network',
  16: 'Module timeout',
};

export function simStateText(state: number): string {
  return SIM_STATE_TEXT[state] ?? `State ${state}`;
}

/** States in which a SIM can send and receive: 3 registered, 4 call connected, 15 accessing network. */
export function isUsableSimState(state: number): boolean {
  return state === 3 || state === 4 || state === 15;
}

export const DeviceStatsBody = z.object({ mac: boundedText(L.mac, 'MAC') });
export const ServiceStat = z.object({
  name: z.string(),
  using: z.number().int(),
  used: z.number().int(),
  success: z.number().int(),
});
export const DeviceStats = z.object({
  mac: z.string(),
  /** The gateway's name. */
  name: z.string(),
  totalSIM: z.number().int(),
  serviceStatss: z.array(ServiceStat),
});
export type DeviceStats = z.infer<typeof DeviceStats>;

export const SimulateSmsBody = z.object({
  gatewayId: boundedText(L.id, 'Gateway id'),
  port: boundedText(L.port, 'Port'),
  from: boundedText(L.smsSender, 'Sender').pipe(z.string().min(1, 'Enter the sender number.')),
  text: boundedText(L.smsText, 'Text').pipe(z.string().min(1, 'Enter the text of the SMS.')),
});

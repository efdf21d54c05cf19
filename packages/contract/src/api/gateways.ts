import { z } from 'zod';

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
  id: z.string().optional(),
  name: z.string(),
  url: z.string(),
  mac: z.string(),
  userName: z.string(),
  /** Write only; blank (or absent) on edit keeps the stored one. */
  password: z.string().optional(),
  isEnable: z.boolean().default(true),
});
export type GatewayInput = z.input<typeof GatewayInput>;

export const UpdateGatewayBody = z.object({ gateway: GatewayInput });
export const GatewayIdBody = z.object({ id: z.string() });

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

export const SetSimNumberBody = z.object({ gatewayId: z.string(), port: z.string(), number: z.string() });

export const DeviceStatsBody = z.object({ mac: z.string() });
export const ServiceStat = z.object({
  name: z.string(),
  using: z.number().int(),
  used: z.number().int(),
  success: z.number().int(),
});
export const DeviceStats = z.object({ mac: z.string(), totalSIM: z.number().int(), serviceStatss: z.array(ServiceStat) });
export type DeviceStats = z.infer<typeof DeviceStats>;

export const SimulateSmsBody = z.object({
  gatewayId: z.string(),
  port: z.string(),
  from: z.string().min(1),
  text: z.string().min(1).max(1000),
});

export { startFromArgs } from './cli.ts';
export { GatewaySim } from './device.ts';
export { SimFleet } from './fleet.ts';
export { macFor, normaliseMac } from './identity.ts';
export type { SlotState } from './model.ts';
export { parsePortSpec } from './model.ts';
export { SimNetwork } from './network.ts';
export type { Faults, SimOptions } from './options.ts';
export type {
  DevStatus,
  FdrRow,
  PortEntry,
  RecvRow,
  RecvSms,
  ReportEntry,
  SdrRow,
  StatusReport,
} from './protocol.ts';
export { ST, stText, TASK_STATUS, taskStatus } from './protocol.ts';
export type { PushRecord } from './pusher.ts';
export type { Outcome, OutcomeFn, SentRecord, SentResult } from './tasks.ts';

export { startFromArgs } from './cli.ts';
export { GoipSim } from './device.ts';
export type { InboxEntry, LineState, PacketRecord, Peer } from './line.ts';
export type { SendResult, SentSms } from './modem.ts';
export type { GoipSimOptions, SimSpec } from './options.ts';
export { fieldsOf, keepalive, parseServerPacket, type ReportKind, type ServerPacket } from './protocol.ts';
export type { ReportHandle, ReportState } from './reports.ts';
export type { SendCount, SessionState } from './sessions.ts';

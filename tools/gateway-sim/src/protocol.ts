// Wire shapes of the Ejoin/Skyline "goip_*.html" HTTP API (see docs/devices-ejoin.md).

/**
 * Task status codes (docs/devices-ejoin.md#task-codes). Every refusal and every fdr progress reason is "<code>
 * <text>".
 */
export const TASK_STATUS = {
  0: 'OK',
  1: 'Invalid User',
  2: 'Invalid Port',
  3: 'USSD Expected',
  4: 'Pending USSD',
  5: 'SIM Unregistered',
  6: 'Timeout',
  7: 'Server Error',
  8: 'SMS expected',
  9: 'TO expected',
  10: 'Pending Transaction',
  11: 'TID Expected',
  12: 'FROM Expected',
  13: 'Duplicated TaskId',
  14: 'Unauthorized',
  15: 'Invalid CMD',
  16: 'Too Many Task',
  17: 'MMS title expected',
  18: 'too many MMS attachments',
  19: 'MMS attachments expected',
  20: 'MMS attachment cache over limit',
} as const;
export type TaskCode = keyof typeof TASK_STATUS;

export function taskStatus(code: TaskCode): string {
  return `${code} ${TASK_STATUS[code]}`;
}

/** Port states (`st`, docs/devices-ejoin.md#sim-states). 3, 4 and 15 can send. */
export const ST = {
  noSim: 0,
  idle: 1,
  registering: 2,
  registered: 3,
  callConnected: 4,
  noBalance: 5,
  registerFailed: 6,
  lockedByDevice: 7,
  lockedByOperator: 8,
  simError: 9,
  cardDetected: 11,
  userLocked: 12,
  interCalling: 13,
  interCallingHold: 14,
  accessingNetwork: 15,
  moduleTimeout: 16,
} as const;

const ST_TEXT: Record<number, string> = {
  0: 'No SIM',
  1: 'Idle SIM',
  2: 'Registering',
  3: 'OK',
  4: 'Call Connected',
  5: 'No Balance',
  6: 'Register Failed',
  7: 'Locked by Device',
  8: 'Locked by Operator',
  9: 'SIM Error',
  11: 'Card Detected',
  12: 'User Locked',
  13: 'Inter-Calling',
  14: 'Inter-Calling Hold',
  15: 'Accessing Mobile Network',
  16: 'Module Timeout',
};

export function stText(st: number): string {
  return `${st} ${ST_TEXT[st] ?? 'Unknown'}`;
}

export function canSend(st: number): boolean {
  return st === ST.registered || st === ST.callConnected || st === ST.accessingNetwork;
}

/** One slot as it appears in `status[]` or, with `type`, as a `port-status` push. */
export interface PortEntry {
  type?: 'port-status';
  port: string;
  sim: string;
  seq: number;
  st: number | string;
  imei: string;
  bal?: string;
  opr?: string;
  sn?: string;
  imsi?: string;
  iccid?: string;
  sig?: number;
  active?: 0 | 1;
  inserted?: 0 | 1;
  slot_active?: 0 | 1;
}

export interface DevStatus {
  type: 'dev-status';
  seq: number;
  expires: number;
  mac: string;
  ip: string;
  ver: string;
  'max-ports': number;
  'max-slot'?: number;
  'max-slots'?: number;
  status: PortEntry[];
}

/** recv-sms row: [flag 0 sms | 1 dlr, port "N.SS", ts, sender (or SMSC for a DLR), recipient, content]. */
export type RecvRow = [0 | 1, string, number, string, string, string];

export interface RecvSms {
  type: 'recv-sms';
  sms_num: number;
  sms: RecvRow[];
}

/** sdr row: [recipient index, number, port, ts]. */
export type SdrRow = [number, string, string, number];
/** fdr row: sdr row + progress reason + carrier reason. */
export type FdrRow = [number, string, string, number, string, string];

export interface ReportEntry {
  tid: number;
  sending: number;
  sent: number;
  failed: number;
  unsent: number;
  sdr: SdrRow[];
  fdr: FdrRow[];
}

export interface StatusReport {
  type: 'status-report';
  rpt_num: number;
  rpts: ReportEntry[];
}

/** One task of a `send-sms` request, as received (unvalidated). */
export interface SendTaskIn {
  tid?: unknown;
  to?: unknown;
  sms?: unknown;
  from?: unknown;
  chs?: unknown;
  coding?: unknown;
  sdr?: unknown;
  fdr?: unknown;
  dr?: unknown;
  sr_cnt?: unknown;
  sr_prd?: unknown;
  /** 0 SMS, 1 MMS (docs/devices-ejoin.md#mms). */
  smstype?: unknown;
  smstitle?: unknown;
  /** "type|base64;type|base64" (at most 5 files). */
  attachments?: unknown;
}

export interface SendSmsRequest {
  type?: unknown;
  task_num?: unknown;
  tasks?: unknown;
  sr_url?: unknown;
  sr_cnt?: unknown;
  sr_prd?: unknown;
  sms_url?: unknown;
  sms_cnt?: unknown;
  sms_prd?: unknown;
}

export const OK_200 = { code: 200, reason: 'OK' } as const;
export const OK_0 = { code: 0, reason: 'OK' } as const;
export const UNAUTHORIZED = { code: 14, reason: 'Unauthorized' } as const;

/** SCTS-like timestamp used in DLR text ("yy/MM/dd,hh:mm:ss+00"). */
export function scts(tsSeconds: number): string {
  const d = new Date(tsSeconds * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCFullYear() % 100)}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())},${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}+00`;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function utf8ToBase64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

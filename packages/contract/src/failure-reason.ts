/**
 * What a failed message's reason means, in the platform's words. The server stores the device's
 * own text (an Ejoin box's "6 Timeout; 21 Short message transfer rejected": the gateway's task code,
 * then the carrier's cause, docs/devices-ejoin.md#report-reasons; a phone's "Send result:
 * RESULT_ERROR_GENERIC_FAILURE (Generic failure cause)"); the History page and its CSV show a plain
 * sentence and keep that text as the detail. A reason the platform wrote itself is already plain:
 * shown as it is.
 */
export type ReasonKind =
  | 'simCannotSend'
  | 'phoneFailed'
  | 'recipientRefused'
  | 'unreachable'
  | 'networkBusy'
  | 'gatewayBusy'
  | 'gatewayError'
  | 'failed';

export interface PlainReason {
  /** null: the text is already the platform's own sentence (show it, no detail). */
  kind: ReasonKind | null;
  /** The stored text, as the device (or the platform) wrote it. */
  detail: string;
}

// The gateway's task codes (docs/devices-ejoin.md#task-codes), as the dispatcher reads them.
const TASK: Record<number, ReasonKind> = {
  1: 'gatewayError',
  2: 'simCannotSend',
  4: 'gatewayBusy',
  5: 'simCannotSend',
  6: 'simCannotSend',
  10: 'gatewayBusy',
  14: 'gatewayError',
  16: 'gatewayBusy',
};

// The carrier's causes (3GPP TS 24.011 RP-Cause): the network's answer about the recipient.
const CARRIER: Record<number, ReasonKind> = {
  1: 'recipientRefused', // unassigned number
  8: 'recipientRefused', // operator determined barring
  10: 'recipientRefused', // call barred
  21: 'recipientRefused', // short message transfer rejected
  27: 'unreachable', // destination out of order
  28: 'recipientRefused', // unidentified subscriber
  29: 'recipientRefused', // facility rejected
  30: 'recipientRefused', // unknown subscriber
  31: 'unreachable', // memory capacity exceeded
  38: 'networkBusy', // network out of order
  41: 'networkBusy', // temporary failure
  42: 'networkBusy', // congestion
  47: 'networkBusy', // resources unavailable
  50: 'recipientRefused', // requested facility not subscribed
};

/** Words that say the same when a device sends a cause without its number. */
const WORDS: [RegExp, ReasonKind][] = [
  [/reject|barred|unknown subscriber|unassigned|not subscribed/i, 'recipientRefused'],
  [/out of order|absent|unreachable|memory capacity/i, 'unreachable'],
  [/congestion|temporary|resources unavailable/i, 'networkBusy'],
  [/timeout|time out|unregistered|invalid port|no sim|no signal/i, 'simCannotSend'],
];

const CODED = /^(\d{1,3})\s+(\S.*)$/;

// An Android phone's send result (SmsManager's RESULT_… codes, as the SMSGate app reports them).
const PHONE_RESULT = /\bRESULT_(?:ERROR_)?([A-Z_]+)\b/;
const PHONE: [RegExp, ReasonKind][] = [
  [
    /^(RADIO_OFF|NO_SERVICE|RADIO_NOT_AVAILABLE|SIM_ABSENT|FDN_CHECK_FAILURE|MODEM_ERROR|INVALID_SMSC_ADDRESS|LIMIT_EXCEEDED)$/,
    'simCannotSend',
  ],
  [
    /^(NETWORK_REJECT|SHORT_CODE_NOT_ALLOWED|SHORT_CODE_NEVER_ALLOWED|INVALID_ARGUMENTS)$/,
    'recipientRefused',
  ],
  [/^(NETWORK_ERROR|SMS_SEND_RETRY_FAILED)$/, 'networkBusy'],
];

export function plainReason(text: string | null | undefined): PlainReason | null {
  const detail = text?.trim() ?? '';
  if (detail === '') return null;
  const phone = PHONE_RESULT.exec(detail);
  if (phone) {
    const code = phone[1] as string;
    return { kind: PHONE.find(([re]) => re.test(code))?.[1] ?? 'phoneFailed', detail };
  }
  if (/\bNo SIMs? found\b/i.test(detail)) return { kind: 'simCannotSend', detail };
  const parts = detail
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  const coded = parts.map((p) => CODED.exec(p));
  // No "<code> <text>" part: the platform's own sentence ("No result from the gateway within …").
  if (coded.every((m) => m === null)) return { kind: null, detail };
  // The carrier's cause (the part after the task code) says most about the recipient: it decides
  // first, then the task code, then the words of any part.
  const [task, ...carrier] = coded;
  for (const m of carrier) {
    const kind = m ? CARRIER[Number(m[1])] : undefined;
    if (kind) return { kind, detail };
  }
  const byTask = task ? TASK[Number(task[1])] : undefined;
  for (const part of [...parts.slice(1), ...(byTask ? [] : parts.slice(0, 1))]) {
    const hit = WORDS.find(([re]) => re.test(part));
    if (hit) return { kind: hit[1], detail };
  }
  if (byTask) return { kind: byTask, detail };
  return { kind: task ? 'gatewayError' : 'failed', detail };
}

/** The plain sentences in English (the CSV export's words; the web app has them in every language). */
export const FAILURE_REASON_TEXTS: Record<ReasonKind, string> = {
  simCannotSend: 'The SIM could not send (no signal or not registered)',
  phoneFailed: 'The phone could not send it',
  recipientRefused: "The recipient's network refused it",
  unreachable: "The recipient's phone could not be reached",
  networkBusy: 'The mobile network was busy',
  gatewayBusy: 'The gateway was busy',
  gatewayError: 'The gateway could not take it',
  failed: 'Not delivered',
};

/** A stored reason as the CSV export writes it: the plain sentence, and the device's text as detail. */
export function reasonColumns(text: string | null | undefined): { reason: string; detail: string } {
  const r = plainReason(text);
  if (!r) return { reason: '', detail: '' };
  return r.kind
    ? { reason: FAILURE_REASON_TEXTS[r.kind], detail: r.detail }
    : { reason: r.detail, detail: '' };
}

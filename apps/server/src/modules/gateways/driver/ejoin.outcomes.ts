import type { SendResult } from '../../../context.ts';
import type { SendOutcome, TaskOutcome } from './driver.ts';
import type { EjoinTaskReport } from './ejoin.parse.ts';

// The Ejoin task codes (docs/devices-ejoin.md#task-codes) in the platform's words: what the device
// answered when it was handed a task, and what its status reports say about each recipient. No
// code outside the Ejoin driver reads these numbers.

const ACCEPTED = new Set([0, 13]); // 13 Duplicated TaskId: the device already has this very task
const SIM_CANNOT_SEND = new Set([2, 5, 6]); // Invalid Port, SIM Unregistered, Timeout
const DEVICE_BUSY = new Set([4, 10, 16]); // Pending USSD, Pending Transaction, Too Many Task
const ACCOUNT_REFUSED = new Set([1, 14]); // Invalid User, Unauthorized
/** Failure reasons of a status report that mean "this SIM can't send" (unregistered, timeout). */
const REPORT_SIM_CANNOT_SEND = new Set([5, 6]);

/** One task's answer to a send: its status code and text ("5 SIM Unregistered"). */
export function taskOutcome(tid: number, code: number, reason: string): TaskOutcome {
  let outcome: SendOutcome = 'recipient_refused';
  if (ACCEPTED.has(code)) outcome = 'accepted';
  else if (SIM_CANNOT_SEND.has(code)) outcome = 'sim_cannot_send';
  else if (DEVICE_BUSY.has(code)) outcome = 'device_busy';
  else if (ACCOUNT_REFUSED.has(code)) outcome = 'account_refused';
  return { tid, outcome, deviceText: `${code} ${reason}`.trim() };
}

/** A status report's success (sdr) and failure (fdr) rows as send results. */
export function sendResults(reports: EjoinTaskReport[]): SendResult[] {
  const out: SendResult[] = [];
  for (const r of reports) {
    for (const row of r.sdr) {
      out.push({ tid: r.tid, outcome: 'delivered', number: row.number, port: row.port, deviceText: '' });
    }
    for (const row of r.fdr) {
      const text = [row.reason, row.carrierReason].filter((x) => x && x.trim() !== '').join('; ');
      out.push({
        tid: r.tid,
        outcome:
          row.reasonCode !== null && REPORT_SIM_CANNOT_SEND.has(row.reasonCode)
            ? 'sim_cannot_send'
            : 'failed',
        number: row.number,
        port: row.port,
        deviceText: text || 'Failed',
      });
    }
  }
  return out;
}

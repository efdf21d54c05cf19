import type { PaymentStatus } from '@simdock/contract';
import type { PaymentEvent } from './providers/provider.ts';

// The forward-only state machine of one top-up (docs/payments.md#states). Pure: the service
// applies its answer inside the transaction that also records the event and moves the money.

/** The provider's steps before a final status, in order: a late, earlier step never wins. */
const STEPS = ['waiting', 'confirming', 'confirmed', 'sending'];
const RANK: Record<PaymentStatus, number> = { PENDING: 0, PAID: 1, DONE: 2, FAILED: 2 };

export interface CurrentState {
  status: PaymentStatus;
  gwStatus: string | null;
}

export type Decision =
  /** Credit `event.amountReal` once (keyed by its provider payment id), then DONE. */
  | { kind: 'credit'; flag: 'repeat_deposit' | null }
  /** Move to this status (and gwStatus); `finish` sets finishedAt. */
  | { kind: 'move'; status: PaymentStatus; gwStatus: string; finish: boolean; flag: string | null }
  /** Keep everything; `why` goes to the log. */
  | { kind: 'ignore'; why: string };

type EventFacts = Pick<
  PaymentEvent,
  'status' | 'gwStatus' | 'credit' | 'refund' | 'amountReal' | 'parentPaymentId'
>;

export function decide(current: CurrentState, ev: EventFacts): Decision {
  if (ev.status === null) return { kind: 'ignore', why: `unknown provider status "${ev.gwStatus}"` };
  // Final success: money arrived. A FAILED top-up still completes ("credit what arrived").
  if (ev.credit && Number(ev.amountReal) > 0) {
    return { kind: 'credit', flag: ev.parentPaymentId ? 'repeat_deposit' : null };
  }
  if (ev.refund) {
    // Never debit on our own: a credited top-up stays DONE and an administrator looks at it.
    if (current.status === 'DONE')
      return {
        kind: 'move',
        status: 'DONE',
        gwStatus: ev.gwStatus,
        finish: false,
        flag: 'refunded_after_credit',
      };
    return { kind: 'move', status: 'FAILED', gwStatus: ev.gwStatus, finish: true, flag: null };
  }
  if (current.status === 'DONE' || current.status === 'FAILED') {
    return { kind: 'ignore', why: `already ${current.status}` };
  }
  // A "success" that brought nothing is a failure to pay.
  const status: PaymentStatus = ev.credit ? 'FAILED' : ev.status;
  if (status === 'FAILED') return { kind: 'move', status, gwStatus: ev.gwStatus, finish: true, flag: null };
  if (RANK[status] < RANK[current.status]) return { kind: 'ignore', why: `stale ${ev.gwStatus}` };
  if (RANK[status] === RANK[current.status]) {
    const was = STEPS.indexOf(current.gwStatus ?? '');
    if (STEPS.indexOf(ev.gwStatus) <= was) return { kind: 'ignore', why: `stale ${ev.gwStatus}` };
  }
  return { kind: 'move', status, gwStatus: ev.gwStatus, finish: false, flag: null };
}

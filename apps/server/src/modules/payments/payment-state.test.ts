import { describe, expect, it } from 'vitest';
import { type CurrentState, decide } from './payment-state.ts';
import { mapNowPaymentsStatus } from './providers/nowpayments.ts';

const ev = (gwStatus: string, amountReal = '0.00', parentPaymentId: string | null = null) => ({
  ...mapNowPaymentsStatus(gwStatus),
  gwStatus,
  amountReal,
  parentPaymentId,
});
const at = (status: CurrentState['status'], gwStatus: string | null): CurrentState => ({ status, gwStatus });

describe('the top-up state machine', () => {
  it('walks PENDING → PAID → DONE along the provider steps', () => {
    expect(decide(at('PENDING', null), ev('waiting'))).toMatchObject({ kind: 'move', status: 'PENDING' });
    expect(decide(at('PENDING', 'waiting'), ev('confirming'))).toMatchObject({
      kind: 'move',
      status: 'PAID',
    });
    expect(decide(at('PAID', 'confirming'), ev('sending'))).toMatchObject({
      kind: 'move',
      gwStatus: 'sending',
    });
    expect(decide(at('PAID', 'sending'), ev('finished', '10.00'))).toEqual({ kind: 'credit', flag: null });
  });

  it('never goes back: a late earlier step is ignored', () => {
    expect(decide(at('PAID', 'confirmed'), ev('confirming')).kind).toBe('ignore');
    expect(decide(at('PAID', 'confirming'), ev('waiting')).kind).toBe('ignore');
    expect(decide(at('DONE', 'finished'), ev('confirming')).kind).toBe('ignore');
    expect(decide(at('FAILED', 'expired'), ev('waiting')).kind).toBe('ignore');
  });

  it('credits partial payments and repeated deposits (flagged)', () => {
    expect(decide(at('PAID', 'sending'), ev('partially_paid', '4.20'))).toEqual({
      kind: 'credit',
      flag: null,
    });
    expect(decide(at('DONE', 'finished'), ev('finished', '5.00', '5000000001'))).toEqual({
      kind: 'credit',
      flag: 'repeat_deposit',
    });
  });

  it('a verified late payment still completes a FAILED top-up', () => {
    expect(decide(at('FAILED', 'expired'), ev('finished', '10.00')).kind).toBe('credit');
  });

  it('fails on failed/expired, and on a success that brought nothing', () => {
    expect(decide(at('PENDING', 'waiting'), ev('failed'))).toMatchObject({ status: 'FAILED', finish: true });
    expect(decide(at('PAID', 'confirming'), ev('expired'))).toMatchObject({ status: 'FAILED' });
    expect(decide(at('PAID', 'sending'), ev('finished', '0.00'))).toMatchObject({ status: 'FAILED' });
  });

  it('a refund after the credit keeps DONE and flags it; before, it fails the top-up', () => {
    expect(decide(at('DONE', 'finished'), ev('refunded'))).toMatchObject({
      kind: 'move',
      status: 'DONE',
      flag: 'refunded_after_credit',
    });
    expect(decide(at('PAID', 'confirming'), ev('refunded'))).toMatchObject({
      status: 'FAILED',
      finish: true,
    });
  });

  it('ignores statuses it does not know', () => {
    expect(decide(at('PENDING', null), ev('wrong_asset_confirmed')).kind).toBe('ignore');
  });
});

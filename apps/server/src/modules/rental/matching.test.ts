import { describe, expect, it } from 'vitest';
import { afterSms, takesSms } from './matching.ts';

const at = new Date('2026-11-27T10:00:00Z');
const waiting = { status: 'WAIT_CODE' as const, closed_at: null, is_repeatable: false };

describe('takesSms', () => {
  it('is true while the order waits for its code', () => {
    expect(takesSms(waiting)).toBe(true);
  });
  it('after a code, only on a service that sends several', () => {
    expect(takesSms({ ...waiting, status: 'SUCCESS' })).toBe(false);
    expect(takesSms({ ...waiting, status: 'SUCCESS', is_repeatable: true })).toBe(true);
  });
  it('never for a cancelled or finished order', () => {
    expect(takesSms({ ...waiting, status: 'CANCEL', is_repeatable: true })).toBe(false);
    expect(takesSms({ ...waiting, closed_at: at })).toBe(false);
    expect(takesSms({ ...waiting, status: 'SUCCESS', is_repeatable: true, closed_at: at })).toBe(false);
  });
});

describe('afterSms', () => {
  const order = { code_text: null, sms_text: null, status: 'WAIT_CODE' as const, finished_at: null, id: '7' };

  it('a code: shown with its SMS, the order SUCCESS and finished at the arrival', () => {
    expect(afterSms(order, 'Your code is 12345', '12345', at)).toEqual({
      id: '7',
      code_text: '12345',
      sms_text: 'Your code is 12345',
      status: 'SUCCESS',
      finished_at: at,
    });
  });

  it('an SMS without a code: its text only, the order still waiting', () => {
    expect(afterSms(order, 'Welcome to Alpha', undefined, at)).toEqual({
      ...order,
      sms_text: 'Welcome to Alpha',
    });
  });

  it('a second code on a repeatable order: the newest code, finished at the first', () => {
    const first = afterSms(order, 'code 111', '111', at);
    const later = new Date(at.getTime() + 60_000);
    expect(afterSms(first, 'code 222', '222', later)).toMatchObject({
      code_text: '222',
      sms_text: 'code 222',
      status: 'SUCCESS',
      finished_at: at,
    });
    // A code-less SMS after it keeps the code.
    expect(afterSms(first, 'thanks', undefined, later)).toMatchObject({
      code_text: '111',
      sms_text: 'thanks',
    });
  });
});

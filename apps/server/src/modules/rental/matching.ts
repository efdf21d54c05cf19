// The rules of giving an arriving SMS to a rental order, as pure functions over the order's row.
import type { OpenOrderForSms } from './orders.queries.ts';

type OrderState = Pick<OpenOrderForSms, 'status' | 'closed_at' | 'is_repeatable'>;

/**
 * Whether an order still takes SMS: waiting for its code, or done with one on a service that sends
 * several; never once the user finished it.
 */
export function takesSms(o: OrderState): boolean {
  return o.closed_at === null && (o.status === 'WAIT_CODE' || (o.status === 'SUCCESS' && o.is_repeatable));
}

/**
 * The order after it took an SMS: the SMS's text is shown; with a code, the code too, the order is
 * SUCCESS and finished at the first code's arrival. An SMS without a code changes nothing else.
 */
export function afterSms<
  O extends Pick<OpenOrderForSms, 'code_text' | 'sms_text' | 'status' | 'finished_at'>,
>(o: O, text: string, code: string | undefined, at: Date): O {
  if (code === undefined) return { ...o, sms_text: text };
  return { ...o, sms_text: text, code_text: code, status: 'SUCCESS', finished_at: o.finished_at ?? at };
}

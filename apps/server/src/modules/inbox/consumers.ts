import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { matchRentalOrders } from '../orders/orders.service.ts';

/** An incoming SMS as stored (once) in incoming_sms. */
export interface StoredSms {
  id: string;
  gatewayId: string | null;
  port: string;
  sender: string;
  recipient: string | null;
  text: string;
  receivedAt: Date;
}

/**
 * Takes a newly stored SMS inside its storing transaction; returns true when it used it
 * (the SMS is then marked matched). SMS no consumer takes stay visible to admins.
 */
export type SmsConsumer = (q: Queryable, sms: StoredSms, ctx: AppContext) => Promise<boolean>;

/** Every consumer of incoming SMS, in order: rental codes first, then (later) chat replies. */
export const smsConsumers: SmsConsumer[] = [matchRentalOrders];

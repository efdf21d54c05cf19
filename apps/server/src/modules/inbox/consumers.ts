import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { matchRentalOrders } from '../orders/orders.service.ts';

/** An incoming SMS as stored (once) in incoming_sms. */
export interface StoredSms {
  id: string;
  gatewayId: string | null;
  port: string;
  sender: string;
  /** What the device says the recipient was (often blank); prefer simNumber. */
  recipient: string | null;
  text: string;
  /** Server time of storage (ctx.clock). */
  receivedAt: Date;
  /** Device time, unix seconds (null for the plain-text forward, which carries none). */
  deviceTs?: number | null;
  /** The SIM row of that port at arrival, its known number, and the card's ICCID. */
  simId?: string | null;
  simNumber?: string | null;
  iccid?: string | null;
}

/**
 * Takes a newly stored SMS inside its storing transaction; returns true when it used it
 * (the SMS is then marked matched and later consumers are skipped). SMS no consumer takes stay
 * visible to admins. A consumer that throws is rolled back to a savepoint and logged; the SMS
 * stays stored. Never called for a duplicate or a delivery receipt.
 */
export type SmsConsumer = (q: Queryable, sms: StoredSms, ctx: AppContext) => Promise<boolean>;

/** Every consumer of incoming SMS, in order: rental codes first, then (later) chat replies. */
export const smsConsumers: SmsConsumer[] = [matchRentalOrders];

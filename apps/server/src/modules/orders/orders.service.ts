import type { Order } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import type { StoredSms } from '../inbox/consumers.ts';
import { findServiceByCode } from '../services/services.queries.ts';
import { changeBalance } from '../users/users.queries.ts';
import { extractCode, smsMatchesService } from './code-extraction.ts';
import {
  cancelAndRefund,
  findOrder,
  insertOrder,
  lockServiceForRent,
  type OrderRow,
  openOrderCount,
  openOrdersOnPort,
  ordersOfUser,
  pickSim,
  recordCode,
  sweepExpired,
} from './orders.queries.ts';

export const ORDER_EVENTS_CHANNEL = 'order_events';

export interface OrderEvent {
  userId: string;
  order: Order;
}

function asOrder(ctx: AppContext, r: OrderRow): Order {
  const cancelMs = ctx.config.CANCEL_MIN_SECONDS * 1000;
  return {
    id: r.id,
    serviceCode: r.service_code,
    serviceName: r.service_name,
    phoneNumber: r.phone_number,
    codeText: r.code_text,
    smsText: r.sms_text,
    status: r.status,
    price: r.price,
    createdAt: r.created_at.toISOString(),
    expiresAt: r.expires_at.toISOString(),
    cancelableAt: new Date(r.created_at.getTime() + cancelMs).toISOString(),
  };
}

/** Queues an order-changed event; NOTIFY inside a transaction is delivered when it commits. */
async function publish(ctx: AppContext, q: Queryable, row: OrderRow): Promise<Order> {
  const order = asOrder(ctx, row);
  const event: OrderEvent = { userId: row.user_id, order };
  await q.query('SELECT pg_notify($1, $2)', [ORDER_EVENTS_CHANNEL, JSON.stringify(event)]);
  return order;
}

/**
 * Rents a number: in one transaction, picks a SIM by the rules of architecture.md, creates the
 * order and charges the price. Rents of one service are serialised so a number is never handed
 * out twice; the unique (phone_number, service_id) index backs that up.
 */
export async function rent(ctx: AppContext, userId: string, serviceCode: string): Promise<Order> {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const service = await findServiceByCode(q, serviceCode.trim());
    if (!service) throw notFound(`Unknown service "${serviceCode}".`);
    if (!service.is_enable) throw conflict(`${service.name} is not available for rent right now.`);
    await lockServiceForRent(q, service.id);
    if ((await openOrderCount(q, service.id)) >= service.stock) {
      throw conflict(`No numbers available for ${service.name} right now. Please try again later.`);
    }
    const sim = await pickSim(q, service.id, now);
    if (!sim) throw conflict(`No numbers available for ${service.name} right now. Please try again later.`);
    const orderId = await insertOrder(q, {
      userId,
      serviceId: service.id,
      sim,
      price: service.price,
      createdAt: now,
      expiresAt: new Date(now.getTime() + service.rent_time_minutes * 60_000),
    });
    const balance = await changeBalance(q, userId, -service.price, 'order_charge', `order:${orderId}`, now);
    if (balance === undefined) {
      throw new AppError(
        'payment_required',
        `Your balance is too low: renting ${service.name} costs $${service.price.toFixed(2)}. Please top up.`,
      );
    }
    return publish(ctx, q, (await findOrder(q, orderId))!);
  });
}

export async function listUserOrders(ctx: AppContext, userId: string): Promise<Order[]> {
  return (await ordersOfUser(ctx.db, userId)).map((r) => asOrder(ctx, r));
}

/** Cancels an order that has no code yet, after the minimum time, with a refund. */
export async function cancel(ctx: AppContext, userId: string, orderId: string): Promise<Order> {
  if (!/^\d{1,18}$/.test(orderId)) throw notFound('Order not found.');
  const now = ctx.clock.now();
  const minMs = ctx.config.CANCEL_MIN_SECONDS * 1000;
  return ctx.db.tx(async (q) => {
    const cancelled = await cancelAndRefund(q, orderId, userId, now, new Date(now.getTime() - minMs));
    if (cancelled) return publish(ctx, q, cancelled);
    const order = await findOrder(q, orderId);
    if (!order || order.user_id !== userId) throw notFound('Order not found.');
    if (order.code_text !== null)
      throw conflict('A code has already arrived for this order; it cannot be cancelled.');
    if (order.status === 'CANCEL') throw conflict('This order is already cancelled.');
    const wait = Math.ceil((order.created_at.getTime() + minMs - now.getTime()) / 1000);
    throw conflict(
      `Orders can be cancelled ${ctx.config.CANCEL_MIN_SECONDS / 60} minutes after renting. Please wait ${wait} s.`,
    );
  });
}

/** One sweep: cancels and refunds overdue orders; returns how many. Safe with several sweepers. */
export async function expireOverdue(ctx: AppContext, batch = 500): Promise<number> {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const done = await sweepExpired(q, now, batch);
    for (const o of done) await publish(ctx, q, o);
    return done.length;
  });
}

/** Device clocks may lag a little. */
const DEVICE_CLOCK_TOLERANCE_MS = 2 * 60_000;

/**
 * When the SMS arrived, for matching: the server's receive time, unless the device's own time
 * says it is older (an SMS recovered by the pull catch-up must not match a newer rental).
 */
export function smsTime(sms: Pick<StoredSms, 'receivedAt' | 'deviceTs'>): Date {
  if (sms.deviceTs === null || sms.deviceTs === undefined) return sms.receivedAt;
  return new Date(Math.min(sms.receivedAt.getTime(), sms.deviceTs * 1000 + DEVICE_CLOCK_TOLERANCE_MS));
}

/**
 * Incoming-SMS consumer: gives the SMS to the open orders on its SIM whose service text it holds.
 * Runs inside the SMS's storing transaction, so a code is recorded exactly once.
 */
export async function matchRentalOrders(q: Queryable, sms: StoredSms, ctx: AppContext): Promise<boolean> {
  // The SIM in the port must still carry the rented number: a swapped card's SMS is not the renter's.
  if (!sms.gatewayId || !sms.simNumber) return false;
  const orders = await openOrdersOnPort(q, sms.gatewayId, sms.port, sms.simNumber, smsTime(sms));
  let matched = false;
  for (const o of orders) {
    if (!smsMatchesService(sms.text, o.text_contains)) continue;
    const updated = await recordCode(
      q,
      o.id,
      sms.id,
      extractCode(sms.text, o.pattern),
      sms.text,
      sms.receivedAt,
    );
    if (updated) await publish(ctx, q, updated);
    matched = true;
  }
  return matched;
}

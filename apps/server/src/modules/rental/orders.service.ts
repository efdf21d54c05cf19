import { countryName, type Order } from '@simdock/contract';
import type { AppContext, ArrivingSms, LiveRenderer, SmsConsumer, StoredSms } from '../../context.ts';
import { batchLoaderPerServer } from '../../db/batch.ts';
import type { Queryable } from '../../db/db.ts';
import { conflict, DomainError, notFound } from '../../errors.ts';
import { publish } from '../../events.ts';
import { isUuid } from '../../ids.ts';
import { charge, refund, refundMany } from '../billing/index.ts';
import { countryPrices } from '../catalogue/index.ts';
import { countSimRental, type UsableSim, usableSims } from '../gateways/index.ts';
import { extractCode, smsMatchesService } from './code-extraction.ts';
import { priceTiers, simMatches } from './country-catalogue.ts';
import { afterSms, takesSms } from './matching.ts';
import {
  type CodeToRecord,
  cancelExpired,
  cancelIfAllowed,
  closeLapsed,
  closeOrder,
  findOrder,
  findOrderDetail,
  findOrders,
  findRequest,
  insertOrder,
  lockRequestKey,
  lockSendingShare,
  lockServiceForRent,
  markRetry,
  type OpenOrderForSms,
  type OrderDetailRow,
  type OrderPageFilter,
  type OrderRow,
  openOrderCount,
  openOrdersForSms,
  orderDetailsPage,
  orderListsJson,
  pickSim,
  recentCancels,
  recordCodes,
  saveRequest,
} from './orders.queries.ts';
import { findServiceByCode } from './services.queries.ts';
import { availabilityChanged, reuseRuleAt } from './services.service.ts';

/** An order as the API shows it (the order list builds the same fields in SQL: orderListsJson). */
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
    price: Number(r.price),
    createdAt: r.created_at.toISOString(),
    expiresAt: r.expires_at.toISOString(),
    cancelableAt: new Date(r.created_at.getTime() + cancelMs).toISOString(),
    finished: r.closed_at !== null,
    country: r.country,
    operator: r.operator,
  };
}

/**
 * Announces an order change; delivered to the user's live stream when the transaction commits, with
 * the order as committed (the stream sends it as is when it fits in the event).
 */
async function orderChanged(q: Queryable, ctx: AppContext, row: OrderRow): Promise<void> {
  await publish(q, { type: 'order', userId: row.user_id, orderId: row.id, order: asOrder(ctx, row) });
}

const noNumbers = (name: string, country?: string) =>
  new DomainError(
    'no_numbers',
    country
      ? `No numbers available for ${name} in ${countryName(country)} right now. Please try another country or try again later.`
      : `No numbers available for ${name} right now. Please try again later.`,
  );

/** A maximum price below the number's price: refused with the price (SMS-Activate's WRONG_MAX_PRICE:<price>). */
export class PriceAboveMax extends DomainError {
  constructor(
    name: string,
    readonly price: string,
    max: string,
  ) {
    super('price_above_max', `${name} costs $${price}, more than your maximum of $${max}.`);
  }
}
const priceAboveMax = (name: string, price: string, max: string) => new PriceAboveMax(name, price, max);

/**
 * Rents a number: in one transaction, picks a SIM by the number-reuse rules (apps/server/README.md), creates
 * the order and charges the price. Rents of one service are serialised (as are admins' spent marks) so
 * the number reuse rule (RENTABLE_SIMS_SQL) is checked against every committed order and a number is
 * never handed to two open orders of a service; the partial unique index
 * orders_number_open_per_service backs that up.
 */
export async function rent(
  ctx: AppContext,
  userId: string,
  serviceCode: string,
  idempotencyKey?: string,
  opts: { maxPrice?: string; country?: string; operator?: string } = {},
): Promise<Order> {
  const now = ctx.clock.now();
  const sims = await usableSims(ctx.db, now, ctx.config.DEFAULT_COUNTRY);
  const rule = reuseRuleAt(ctx, now, sims);
  // A country (and operator) narrows the SIMs a rent may take; the share kept for sending stays the
  // whole pool's.
  const candidates =
    opts.country || opts.operator ? sims.filter((s) => simMatches(s, opts.country, opts.operator)) : sims;
  const order = await ctx.db.tx(async (q) => {
    if (idempotencyKey !== undefined) {
      // A retry (same user, same key) gets the order the first request made, never a second one.
      await lockRequestKey(q, userId, idempotencyKey);
      const earlier = await findRequest(q, userId, idempotencyKey);
      if (earlier) {
        if (earlier.service_code !== serviceCode.trim()) {
          throw conflict('This Idempotency-Key was already used for another service.', undefined, 'conflict');
        }
        return asOrder(ctx, (await findOrder(q, earlier.order_id))!);
      }
    }
    const service = await findServiceByCode(q, serviceCode.trim());
    if (!service) throw new DomainError('service_not_found', `Unknown service "${serviceCode}".`);
    if (!service.is_enable) {
      throw new DomainError('service_disabled', `${service.name} is not available for rent right now.`);
    }
    // The price is the number's: its country's or operator's, else the service's. The cheapest
    // tier with a free number is taken; one above the maximum is refused with its price.
    const prices = (await countryPrices(q, [service.id])).get(service.id) ?? [];
    const tiers = priceTiers(service.price, prices, candidates, opts.country, opts.operator);
    const aboveMax = (price: string) =>
      opts.maxPrice !== undefined && Number(price) > Number(opts.maxPrice)
        ? priceAboveMax(service.name, price, opts.maxPrice)
        : null;
    const cheapestRefused = aboveMax(tiers[0]!.price);
    if (cheapestRefused) throw cheapestRefused;
    await lockServiceForRent(q, service.id);
    if ((await openOrderCount(q, service.id)) >= service.stock) throw noNumbers(service.name, opts.country);
    // SIMs kept for sending: rents that may take a free SIM with role Both are serialised across
    // services, so the spare count pickSim reads cannot be spent twice.
    if (rule.keptForSending > 0) await lockSendingShare(q);
    let picked: { sim: UsableSim; price: string } | undefined;
    for (const tier of tiers) {
      if (tier.sims.length === 0) continue;
      const sim = await pickSim(q, service.id, tier.sims, rule, sims);
      if (!sim) continue;
      const refused = aboveMax(tier.price);
      if (refused) throw refused;
      picked = { sim, price: tier.price };
      break;
    }
    if (!picked) throw noNumbers(service.name, opts.country);
    const { sim, price } = picked;
    const orderId = await insertOrder(q, {
      userId,
      service,
      sim,
      price,
      createdAt: now,
      expiresAt: new Date(now.getTime() + service.rent_time_minutes * 60_000),
    });
    await countSimRental(q, sim.id, now);
    await charge(
      q,
      { userId, amount: price, ref: `order:${orderId}`, at: now },
      `Your balance is too low: renting ${service.name} costs $${price}. Please top up.`,
    );
    if (idempotencyKey !== undefined) {
      await saveRequest(q, { userId, key: idempotencyKey, serviceCode: service.code, orderId, at: now });
    }
    const row = (await findOrder(q, orderId))!;
    await orderChanged(q, ctx, row);
    return asOrder(ctx, row);
  });
  availabilityChanged(ctx);
  return order;
}

/**
 * The order lists of users whose requests arrive together are read in one statement, and requests
 * of the same user share one list (read after each of them arrived: no cache).
 */
const readOrderList = batchLoaderPerServer((ctx: AppContext, userIds: string[]) =>
  orderListsJson(ctx.db, userIds, ctx.config.CANCEL_MIN_SECONDS),
);

/** The user's newest 100 orders as the JSON text of an `Order[]` (the order list's answer). */
export async function userOrdersJson(ctx: AppContext, userId: string): Promise<string> {
  return (isUuid(userId) ? await readOrderList(ctx, userId.toLowerCase()) : undefined) ?? '[]';
}

export async function listUserOrders(ctx: AppContext, userId: string): Promise<Order[]> {
  return JSON.parse(await userOrdersJson(ctx, userId)) as Order[];
}

/**
 * The hourly cap on a user's cancellations (RENTAL_CANCELS_PER_HOUR): a refunded cancellation costs
 * nothing, so without it a renter could churn a service's numbers for free.
 */
async function assertCancelAllowed(ctx: AppContext, q: Queryable, userId: string, now: Date): Promise<void> {
  const cap = ctx.config.RENTAL_CANCELS_PER_HOUR;
  if (cap === 0) return;
  // Counts this cancellation too (its row is updated already); a refusal rolls it back.
  const { n, oldest } = await recentCancels(q, userId, new Date(now.getTime() - 3_600_000));
  if (n <= cap) return;
  const waitS = Math.max(
    1,
    Math.ceil(((oldest?.getTime() ?? now.getTime()) + 3_600_000 - now.getTime()) / 1000),
  );
  const err = new DomainError(
    'cancel_limit_reached',
    `You have cancelled ${cap} rentals in the last hour, the most allowed. You can cancel again in ${Math.ceil(waitS / 60)} min; until then, wait for the code or let the rental expire (it is refunded then too).`,
  );
  err.retryAfterSeconds = waitS;
  throw err;
}

/** Cancels an order that has no code yet, after the minimum time, with a refund. */
export async function cancel(ctx: AppContext, userId: string, orderId: string): Promise<Order> {
  if (!/^\d{1,18}$/.test(orderId)) throw notFound('Order not found.', 'order_not_found');
  const now = ctx.clock.now();
  const minMs = ctx.config.CANCEL_MIN_SECONDS * 1000;
  const order = await ctx.db.tx(async (q) => {
    const cancelled = await cancelIfAllowed(q, orderId, userId, now, new Date(now.getTime() - minMs));
    if (cancelled) {
      await assertCancelAllowed(ctx, q, userId, now);
      await refund(q, { userId, amount: cancelled.price, ref: `order:${cancelled.id}`, at: now });
      await orderChanged(q, ctx, cancelled);
      return asOrder(ctx, cancelled);
    }
    const order = await findOrder(q, orderId);
    if (!order || order.user_id !== userId) throw notFound('Order not found.', 'order_not_found');
    if (order.code_text !== null) {
      throw conflict(
        'A code has already arrived for this order; it cannot be cancelled.',
        undefined,
        'order_has_code',
      );
    }
    if (order.status === 'CANCEL') {
      throw conflict('This order is already cancelled.', undefined, 'order_already_cancelled');
    }
    const wait = Math.ceil((order.created_at.getTime() + minMs - now.getTime()) / 1000);
    throw conflict(
      `Orders can be cancelled ${ctx.config.CANCEL_MIN_SECONDS / 60} minutes after renting. Please wait ${wait} s.`,
      undefined,
      'cancel_too_early',
    );
  });
  availabilityChanged(ctx);
  return order;
}

// ---- finish and another SMS (the rental API) ----------------------------------------------------

const ORDER_ID = /^\d{1,18}$/;

/** A rental with what the rental API shows: every code, repeatability and the retry state. */
export interface OrderDetail extends Order {
  isRepeatable: boolean;
  codes: { code: string | null; text: string; receivedAt: string }[];
  /** Another SMS was asked for and no code arrived since. */
  waitingForAnotherSms: boolean;
  /** Another SMS can be asked for now. */
  canGetAnotherSms: boolean;
  finished: boolean;
}

function asDetail(ctx: AppContext, r: OrderDetailRow): OrderDetail {
  const now = ctx.clock.now();
  const open = r.closed_at === null && r.expires_at > now;
  return {
    ...asOrder(ctx, r),
    isRepeatable: r.is_repeatable,
    codes: r.codes,
    waitingForAnotherSms:
      open &&
      r.retry_requested_at !== null &&
      (r.last_code_at === null || new Date(r.last_code_at) <= new Date(r.retry_requested_at)),
    canGetAnotherSms: open && r.is_repeatable && r.status === 'SUCCESS',
    finished: r.closed_at !== null,
  };
}

/** One of the user's orders with its details, or undefined (never another user's). */
export async function userOrderDetail(
  ctx: AppContext,
  userId: string,
  orderId: string,
): Promise<OrderDetail | undefined> {
  if (!ORDER_ID.test(orderId)) return undefined;
  const row = await findOrderDetail(ctx.db, orderId);
  return row && row.user_id === userId ? asDetail(ctx, row) : undefined;
}

/** A page of the user's orders with details, newest first. `active` keeps the open ones (not finished, in time). */
export async function userOrderDetails(
  ctx: AppContext,
  userId: string,
  filter: { status?: Order['status']; active?: boolean; from?: Date; to?: Date },
  limit: number,
  offset: number,
): Promise<{ orders: OrderDetail[]; total: number; totalEstimated: boolean }> {
  const f: OrderPageFilter = {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.active ? { active: { now: ctx.clock.now() } } : {}),
    ...(filter.from ? { from: filter.from } : {}),
    ...(filter.to ? { to: filter.to } : {}),
  };
  const { rows, total, totalEstimated } = await orderDetailsPage(ctx.db, userId, f, limit, offset);
  return { orders: rows.map((r) => asDetail(ctx, r)), total, totalEstimated };
}

async function ownOrder(q: Queryable, userId: string, orderId: string): Promise<OrderRow> {
  const order = ORDER_ID.test(orderId) ? await findOrder(q, orderId) : undefined;
  if (!order || order.user_id !== userId) throw notFound('Order not found.', 'order_not_found');
  return order;
}

/**
 * Finishes an order whose code arrived (SMS-Activate setStatus 6): it takes no more codes. Finishing
 * twice is fine. An order without a code cannot be finished (cancel it instead).
 */
export async function finish(ctx: AppContext, userId: string, orderId: string): Promise<OrderDetail> {
  const now = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    const closed = ORDER_ID.test(orderId) ? await closeOrder(q, orderId, userId, now) : undefined;
    if (closed) {
      if (closed.closed_at?.getTime() === now.getTime()) await orderChanged(q, ctx, closed);
      return;
    }
    const order = await ownOrder(q, userId, orderId);
    if (order.status === 'CANCEL') {
      throw conflict(
        'This order was cancelled; it cannot be finished.',
        undefined,
        'order_already_cancelled',
      );
    }
    throw conflict('No code has arrived for this order yet; cancel it instead.', undefined, 'order_no_code');
  });
  return (await userOrderDetail(ctx, userId, orderId))!;
}

/**
 * Asks for another SMS on the same number (SMS-Activate setStatus 3), free: only for a repeatable
 * service, after a code, while the order is open. The order then waits for the next code
 * (STATUS_WAIT_RETRY) and records it like the first.
 */
export async function requestAnotherSms(
  ctx: AppContext,
  userId: string,
  orderId: string,
): Promise<OrderDetail> {
  const now = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    const marked = ORDER_ID.test(orderId) ? await markRetry(q, orderId, userId, now) : undefined;
    if (marked) {
      await orderChanged(q, ctx, marked);
      return;
    }
    const order = await ownOrder(q, userId, orderId);
    const detail = (await findOrderDetail(q, orderId))!;
    if (order.status === 'CANCEL') {
      throw conflict('This order was cancelled.', undefined, 'order_already_cancelled');
    }
    if (!detail.is_repeatable) {
      throw conflict(
        `${order.service_name} sends one code per number; rent a new number instead.`,
        undefined,
        'order_not_repeatable',
      );
    }
    if (order.status === 'WAIT_CODE') {
      throw conflict('No code has arrived yet; wait for the first one.', undefined, 'order_no_code');
    }
    throw conflict('This order is finished or its time is over.', undefined, 'order_closed');
  });
  return (await userOrderDetail(ctx, userId, orderId))!;
}

/** One sweep: cancels and refunds overdue orders; returns how many. Safe with several sweepers. */
export async function expireOverdue(ctx: AppContext, batch = 500): Promise<number> {
  const now = ctx.clock.now();
  const expired = await ctx.db.tx(async (q) => {
    const done = await cancelExpired(q, now, batch);
    await refundMany(
      q,
      done.map((o) => ({ userId: o.user_id, amount: o.price, ref: `order:${o.id}` })),
      now,
    );
    for (const o of done) await orderChanged(q, ctx, o);
    return done.length;
  });
  if (expired > 0) availabilityChanged(ctx);
  return expired;
}

/**
 * One sweep: rentals with a code whose time is over close by themselves, as the user's Finish would
 * at that moment (each announced on the live stream); returns how many. Safe with several sweepers.
 */
export async function closeLapsedOrders(ctx: AppContext, batch = 500): Promise<number> {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const done = await closeLapsed(q, now, batch);
    for (const o of done) await orderChanged(q, ctx, o);
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

/** The open orders an arriving SMS may go to: the read of the matching, keyed by what it reads. */
type OpenOrders = Promise<OpenOrderForSms[]>;
const readKey = (gatewayId: string, port: string, at: Date) =>
  `${gatewayId}\u0000${port}\u0000${at.getTime()}`;

/** Reads issued ahead per transaction (readAheadOrders), taken by the matching. */
const readsAhead = new WeakMap<Queryable, Map<string, OpenOrders>>();

/**
 * Issues the open-orders read for SMS about to be stored, so it goes out with their insert; the
 * matching takes it (matchMany). Not awaited here: a failed read fails the transaction there, or at
 * its next statement.
 */
function readAheadOrders(q: Queryable, arriving: readonly ArrivingSms[]): void {
  const items = arriving.flatMap((a) =>
    a.gatewayId ? [{ gatewayId: a.gatewayId, port: a.port, receivedAt: smsTime(a) }] : [],
  );
  if (items.length === 0) return;
  const split = openOrdersForSms(q, items).then((rows) => perSms(rows, items.length));
  const reads = readsAhead.get(q) ?? new Map<string, OpenOrders>();
  readsAhead.set(q, reads);
  items.forEach((it, n) => {
    const read = split.then((orders) => orders[n]!);
    read.catch(() => {}); // a read nobody takes (a duplicate SMS) must not be an unhandled rejection
    reads.set(readKey(it.gatewayId, it.port, it.receivedAt), read);
  });
}

/** The open orders for each SMS: the reads issued ahead where there are, else one read now. */
async function openOrdersOf(
  q: Queryable,
  list: readonly { gatewayId: string; port: string; receivedAt: Date }[],
): Promise<OpenOrderForSms[][]> {
  const reads = readsAhead.get(q);
  const keys = list.map((m) => readKey(m.gatewayId, m.port, m.receivedAt));
  const ahead = keys.map((k) => reads?.get(k));
  for (const k of keys) reads?.delete(k);
  if (ahead.every((r) => r !== undefined)) return Promise.all(ahead as OpenOrders[]);
  return perSms(await openOrdersForSms(q, list), list.length);
}

/** The rows of openOrdersForSms split by the SMS (`n`) they are open for. */
function perSms(rows: readonly (OpenOrderForSms & { n: number })[], count: number): OpenOrderForSms[][] {
  const out = Array.from({ length: count }, (): OpenOrderForSms[] => []);
  for (const o of rows) out[o.n]!.push(o);
  return out;
}

/**
 * Incoming-SMS consumer: gives the SMS to the open orders on its SIM whose service text it holds.
 * Runs inside the SMS's storing transaction, so a code is recorded exactly once.
 */
async function matchOne(q: Queryable, sms: StoredSms, ctx: AppContext): Promise<boolean> {
  return (await matchMany(q, [sms], ctx))[0]!;
}

/**
 * Gives each SMS in turn to the open orders of its port in one read (issued ahead with the SMS's
 * insert when the inbox could) and one write whatever their number: which SMS each order takes is
 * worked out in memory, in order, on the orders as the SMS before changed them (an order that took
 * a code and does not repeat is not open for the SMS after it). The SIM in the port must still carry
 * the rented number: a swapped card's SMS is not the renter's.
 */
async function matchMany(q: Queryable, list: readonly StoredSms[], ctx: AppContext): Promise<boolean[]> {
  const taken = list.map(() => false);
  const eligible = list.flatMap((sms, i) =>
    sms.gatewayId && sms.simNumber ? [{ sms, i, gatewayId: sms.gatewayId, simNumber: sms.simNumber }] : [],
  );
  if (eligible.length === 0) return taken;
  const open = await openOrdersOf(
    q,
    eligible.map(({ sms, gatewayId }) => ({ gatewayId, port: sms.port, receivedAt: smsTime(sms) })),
  );
  const now = new Map<string, OpenOrderForSms>(); // orders as this batch left them
  const codes: CodeToRecord[] = [];
  const recorded: { order: OpenOrderForSms; sms: StoredSms; code: string | undefined }[] = [];
  eligible.forEach(({ sms, i, simNumber }, n) => {
    for (const read of open[n]!) {
      const o = now.get(read.id) ?? read;
      if (o.phone_number !== simNumber || !takesSms(o) || !smsMatchesService(sms.text, o.text_contains))
        continue;
      const code = extractCode(sms.text, o.pattern);
      const after = afterSms(o, sms.text, code, sms.receivedAt);
      now.set(o.id, after);
      codes.push({ orderId: o.id, smsId: sms.id, code, text: sms.text, at: sms.receivedAt });
      recorded.push({ order: after, sms, code });
      taken[i] = true;
    }
  });
  if (codes.length === 0) return taken;
  await recordCodes(q, codes, [...now.values()]);
  for (const r of recorded) await codeRecorded(q, ctx, r.order, r.sms, r.code);
  return taken;
}

/** A code (or a code-less SMS) was recorded on an order: its event, the OTP metric, the listeners. */
async function codeRecorded(
  q: Queryable,
  ctx: AppContext,
  updated: OrderRow,
  sms: StoredSms,
  code: string | undefined,
): Promise<void> {
  await orderChanged(q, ctx, updated);
  if (code === undefined) return;
  ctx.metrics.otpLatency.observe((ctx.clock.now().getTime() - sms.receivedAt.getTime()) / 1000);
  for (const listener of ctx.registry.codeListeners) {
    await listener(
      q,
      {
        orderId: updated.id,
        userId: updated.user_id,
        serviceCode: updated.service_code,
        phoneNumber: updated.phone_number,
        code,
        text: sms.text,
        receivedAt: sms.receivedAt,
        ref: `order_code:${updated.id}:${sms.id}`,
      },
      ctx,
    );
  }
}

export const matchRentalOrders: SmsConsumer = Object.assign(matchOne, {
  many: matchMany,
  readAhead: readAheadOrders,
});

/**
 * The live stream's reads of orders, per server: the events of a burst (many SMS at once) are read
 * in one statement rather than one each.
 */
const readLiveOrder = batchLoaderPerServer(
  async (ctx: AppContext, ids: string[]) => new Map((await findOrders(ctx.db, ids)).map((r) => [r.id, r])),
);

/** Live stream: an order event sends the order as it is now, to its owner only. */
export const renderOrderEvent: LiveRenderer<'order'> = async (ctx, event) => {
  if (event.type !== 'order' || !ORDER_ID.test(event.orderId)) return null;
  if (event.order) return { event: 'order', data: event.order };
  const row = await readLiveOrder(ctx, event.orderId);
  return row && row.user_id === event.userId ? { event: 'order', data: asOrder(ctx, row) } : null;
};

import { boundedText, type Service, TEXT_LIMITS } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import { balanceOf } from '../billing/index.ts';
import {
  cancel,
  finish,
  type OrderDetail,
  rent,
  requestAnotherSms,
  servicesWithAvailability,
  userOrderDetail,
  userOrderDetails,
} from '../rental/index.ts';
import { HANDLER_TOKENS } from './tokens.ts';

// The SMS-Activate "handler API" (docs/api.md) on our services, orders and
// balance. Classic actions answer plain-text tokens with HTTP 200 and nothing after them; list and
// detail actions answer JSON in the shapes clients parse. Activation ids are our numeric order ids.

/** What the handler sends: a token (text), JSON, or nothing (204). */
export type Answer =
  | { status: number; text: string }
  | { status: number; json: unknown }
  | { status: 204; empty: true };

const text = (t: string, status = 200): Answer => ({ status, text: t });
const json = (j: unknown, status = 200): Answer => ({ status, json: j });

export type Params = Record<string, string | undefined>;

/** USD as ISO 4217 numeric, as Hero sends it. */
const CURRENCY_USD = 840;

/** Phone numbers go out as digits with the country code, no `+` (clients match `\d+`). */
export const digits = (phone: string) => phone.replace(/\D/g, '');

/** `YYYY-MM-DD HH:MM:SS` in UTC, the protocol's date format. */
export function protocolTime(iso: string | Date): string {
  return new Date(iso).toISOString().slice(0, 19).replace('T', ' ');
}

/** The token answer of a refusal (see HANDLER_TOKENS); WRONG_MAX_PRICE carries the current price. */
export function refusal(err: DomainError, detail?: { price?: number }): Answer {
  const token = HANDLER_TOKENS[err.code] ?? 'ERROR_SQL';
  if (err.code === 'too_many_requests') return json({ title: 'RATE_LIMIT', details: err.message }, 429);
  if (err.code === 'price_above_max' && detail?.price !== undefined) {
    return text(`${token}:${detail.price.toFixed(2)}`);
  }
  return text(token);
}

/** Hero's envelope for its newer actions (finishActivation, cancelActivation): a real status. */
function envelope(err: DomainError, status: number): Answer {
  return json({ title: HANDLER_TOKENS[err.code] ?? 'ERROR_SQL', details: err.message }, status);
}

function activationId(p: Params): string {
  const id = (p.id ?? '').trim();
  if (!/^\d{1,18}$/.test(id)) throw new DomainError('order_not_found', 'Unknown activation id.');
  return id;
}

/**
 * A paging parameter, read leniently as SMS-Activate servers do (the protocol has no error token
 * for it, and ERROR_SQL is no answer to bad input): a whole number is kept within [min, max], anything
 * else counts as absent.
 */
function optionalInt(p: Params, name: string, min: number, max: number): number | undefined {
  const v = p[name]?.trim();
  if (v === undefined || !/^-?\d{1,15}$/.test(v)) return undefined;
  return Math.min(max, Math.max(min, Number(v)));
}

/** A country other than ours has no numbers; no country means ours. */
function countryOk(ctx: AppContext, p: Params): boolean {
  const c = p.country?.trim();
  return c === undefined || c === '' || c === String(ctx.config.API_COUNTRY_ID);
}

async function services(ctx: AppContext): Promise<Service[]> {
  return servicesWithAvailability(ctx, true);
}

async function priceOf(ctx: AppContext, code: string | undefined): Promise<number | undefined> {
  return (await services(ctx)).find((s) => s.code === code)?.price;
}

/** The state a getStatus poll reports. */
function statusToken(o: OrderDetail): string {
  if (o.status === 'CANCEL') return 'STATUS_CANCEL';
  if (o.status === 'WAIT_CODE') return 'STATUS_WAIT_CODE';
  if (o.waitingForAnotherSms) return `STATUS_WAIT_RETRY:${o.codeText ?? ''}`;
  return `STATUS_OK:${o.codeText ?? ''}`;
}

/** `activationStatus` of the list actions: the setStatus value that leads to the state. */
function activationStatus(o: OrderDetail): string {
  if (o.status === 'CANCEL') return '8';
  if (o.status === 'WAIT_CODE') return '1';
  if (o.waitingForAnotherSms) return '3';
  return '6';
}

async function order(ctx: AppContext, userId: string, p: Params): Promise<OrderDetail> {
  const o = await userOrderDetail(ctx, userId, activationId(p));
  if (!o) throw new DomainError('order_not_found', 'Unknown activation id.');
  return o;
}

async function rentFor(ctx: AppContext, userId: string, p: Params): Promise<OrderDetail> {
  const service = p.service?.trim();
  if (!service) throw new DomainError('service_not_found', 'Choose a service.');
  // A code no service can have (a NUL, too long) never reaches the database: BAD_SERVICE.
  if (!SERVICE_CODE.safeParse(service).success)
    throw new DomainError('service_not_found', 'Unknown service.');
  const maxPriceText = p.maxPrice?.trim();
  let maxPrice: string | undefined;
  if (maxPriceText) {
    // A maxPrice that is not a price is answered as SMS-Activate does: WRONG_MAX_PRICE:<price>.
    if (!/^\d{1,9}(\.\d{1,6})?$/.test(maxPriceText))
      throw new DomainError('price_above_max', 'maxPrice must be a price.');
    maxPrice = maxPriceText;
  }
  if (!countryOk(ctx, p)) {
    // Unknown service codes still answer BAD_SERVICE, like everywhere else.
    if ((await priceOf(ctx, service)) === undefined) {
      throw new DomainError('service_not_found', `Unknown service "${service}".`);
    }
    throw new DomainError('no_numbers', 'No numbers in this country.');
  }
  const rented = await rent(ctx, userId, service, undefined, maxPrice ? { maxPrice } : {});
  return (await userOrderDetail(ctx, userId, rented.id))!;
}

const SERVICE_CODE = boundedText(TEXT_LIMITS.serviceCode, 'Service');

function numberV2(ctx: AppContext, o: OrderDetail) {
  return {
    activationId: Number(o.id),
    phoneNumber: digits(o.phoneNumber),
    activationCost: o.price,
    currency: CURRENCY_USD,
    countryCode: ctx.config.API_COUNTRY_ID,
    countryPhoneCode: ctx.config.API_COUNTRY_PHONE_CODE,
    canGetAnotherSms: o.isRepeatable,
    activationTime: protocolTime(o.createdAt),
    activationEndTime: protocolTime(o.expiresAt),
    activationOperator: 'any',
  };
}

function activeRow(ctx: AppContext, o: OrderDetail) {
  return {
    activationId: o.id,
    serviceCode: o.serviceCode,
    phoneNumber: digits(o.phoneNumber),
    activationCost: o.price,
    activationStatus: activationStatus(o),
    smsCode: o.codeText,
    smsText: o.smsText,
    activationTime: protocolTime(o.createdAt),
    discount: '0.00',
    repeated: '0',
    countryCode: String(ctx.config.API_COUNTRY_ID),
    countryName: ctx.config.API_COUNTRY_NAME,
    canGetAnotherSms: o.canGetAnotherSms ? '1' : '0',
    currency: String(CURRENCY_USD),
  };
}

type Action = (ctx: AppContext, userId: string, p: Params) => Promise<Answer>;

const setStatus: Action = async (ctx, userId, p) => {
  const id = activationId(p);
  const status = (p.status ?? '').trim();
  switch (status) {
    case '1': {
      // "The SMS was sent": nothing to do here; valid while the order waits for a code.
      const o = await order(ctx, userId, p);
      if (o.status !== 'WAIT_CODE') {
        throw new DomainError('order_has_code', 'This activation is not waiting for a code.');
      }
      return text('ACCESS_READY');
    }
    case '3':
      await requestAnotherSms(ctx, userId, id);
      return text('ACCESS_RETRY_GET');
    case '6':
      await finish(ctx, userId, id);
      return text('ACCESS_ACTIVATION');
    case '8':
    case '-1':
      await cancel(ctx, userId, id);
      return text('ACCESS_CANCEL');
    default:
      // Unknown activation ids answer NO_ACTIVATION first, as clients expect.
      await order(ctx, userId, p);
      throw new DomainError('invalid_status', 'Unknown status: use 1, 3, 6 or 8.');
  }
};

export const ACTIONS: Record<string, Action> = {
  async getBalance(ctx, userId) {
    return text(`ACCESS_BALANCE:${(await balanceOf(ctx.db, userId)) ?? '0.00'}`);
  },
  async getBalanceAndCashBack(ctx, userId) {
    // No cashback here: the same as the balance.
    return text(`ACCESS_BALANCE:${(await balanceOf(ctx.db, userId)) ?? '0.00'}`);
  },
  async getNumber(ctx, userId, p) {
    const o = await rentFor(ctx, userId, p);
    return text(`ACCESS_NUMBER:${o.id}:${digits(o.phoneNumber)}`);
  },
  async getNumberV2(ctx, userId, p) {
    return json(numberV2(ctx, await rentFor(ctx, userId, p)));
  },
  setStatus,
  async getStatus(ctx, userId, p) {
    return text(statusToken(await order(ctx, userId, p)));
  },
  async getStatusV2(ctx, userId, p) {
    const o = await order(ctx, userId, p);
    if (o.status === 'CANCEL') return text('STATUS_CANCEL');
    const last = [...o.codes].reverse().find((c) => c.code !== null);
    return json({
      verificationType: 0,
      sms: last ? { dateTime: protocolTime(last.receivedAt), code: last.code, text: last.text } : null,
      call: null,
    });
  },
  async getFullSms(ctx, userId, p) {
    const o = await order(ctx, userId, p);
    if (o.status !== 'SUCCESS' || o.waitingForAnotherSms || !o.smsText) return text(statusToken(o));
    // The token answer never ends in whitespace, even when the SMS did.
    return text(`FULL_SMS:${o.smsText.trimEnd()}`);
  },
  async getActiveActivations(ctx, userId, p) {
    const start = optionalInt(p, 'start', 0, 1_000_000) ?? 0;
    const limit = optionalInt(p, 'limit', 1, 100) ?? 100;
    const { orders } = await userOrderDetails(ctx, userId, { active: true }, limit, start);
    if (orders.length === 0) return text('NO_ACTIVATIONS');
    const rows = orders.map((o) => activeRow(ctx, o));
    // Clones read `activeActivations`, Hero's docs `data`: both are sent.
    return json({ status: 'success', activeActivations: rows, data: rows });
  },
  async getHistory(ctx, userId, p) {
    const start = optionalInt(p, 'start', 0, 1e11);
    const end = optionalInt(p, 'end', 0, 1e11);
    const offset = optionalInt(p, 'offset', 0, 1_000_000) ?? 0;
    const size = optionalInt(p, 'size', 1, 100) ?? 100;
    const { orders } = await userOrderDetails(
      ctx,
      userId,
      {
        ...(start !== undefined ? { from: new Date(start * 1000) } : {}),
        ...(end !== undefined ? { to: new Date(end * 1000) } : {}),
      },
      size,
      offset,
    );
    return json(
      orders.map((o) => ({
        id: Number(o.id),
        date: protocolTime(o.createdAt),
        phone: digits(o.phoneNumber),
        sms: o.smsText,
        cost: o.price,
        status: activationStatus(o),
        currency: CURRENCY_USD,
      })),
    );
  },
  async getPrices(ctx, _userId, p) {
    const code = p.service?.trim() || undefined;
    const list = (await services(ctx)).filter((s) => !code || s.code === code);
    if (code && list.length === 0) throw new DomainError('service_not_found', `Unknown service "${code}".`);
    if (!countryOk(ctx, p)) return json({});
    return json({
      [ctx.config.API_COUNTRY_ID]: Object.fromEntries(
        list.map((s) => [s.code, { cost: s.price, count: s.available, physicalCount: s.available }]),
      ),
    });
  },
  async getNumbersStatus(ctx, _userId, p) {
    const list = countryOk(ctx, p) ? await services(ctx) : [];
    // Keys are `<service>_<forwarding>`; we have no call forwarding (suffix 0).
    return json(Object.fromEntries(list.map((s) => [`${s.code}_0`, s.available])));
  },
  async getTopCountriesByService(ctx, _userId, p) {
    const code = p.service?.trim() || undefined;
    const list = (await services(ctx)).filter((s) => !code || s.code === code);
    if (code && list.length === 0) throw new DomainError('service_not_found', `Unknown service "${code}".`);
    const freePrice = p.freePrice === 'true' || p.freePrice === '1';
    // One country: rank 0 is ours, with the figures of the (first) service asked about.
    const s = list[0];
    if (!s) return json({});
    return json({
      '0': {
        country: ctx.config.API_COUNTRY_ID,
        count: s.available,
        price: s.price,
        retail_price: s.price,
        ...(freePrice ? { freePriceMap: { [s.price.toFixed(2)]: s.available } } : {}),
      },
    });
  },
  async getCountries(ctx) {
    const id = ctx.config.API_COUNTRY_ID;
    const name = ctx.config.API_COUNTRY_NAME;
    return json({
      [id]: { id, rus: name, eng: name, chn: name, visible: 1, retry: 1, rent: 0, multiService: 0 },
    });
  },
  async getServicesList(ctx) {
    return json({
      status: 'success',
      services: (await services(ctx)).map((s) => ({ code: s.code, name: s.name })),
    });
  },
  async getOperators(ctx, _userId, p) {
    if (!countryOk(ctx, p)) return text('OPERATORS_NOT_FOUND');
    return json({ status: 'success', countryOperators: { [ctx.config.API_COUNTRY_ID]: ['any'] } });
  },
  async finishActivation(ctx, userId, p) {
    try {
      await finish(ctx, userId, activationId(p));
      return { status: 204, empty: true };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return envelope(err, err.code === 'order_not_found' ? 404 : 409);
    }
  },
  async cancelActivation(ctx, userId, p) {
    try {
      await cancel(ctx, userId, activationId(p));
      return { status: 204, empty: true };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const status = err.code === 'order_not_found' ? 404 : err.code === 'cancel_limit_reached' ? 429 : 409;
      return envelope(err, status);
    }
  },
};

/** Runs one action for the authenticated user; refusals become their tokens. */
export async function runAction(ctx: AppContext, userId: string, p: Params): Promise<Answer> {
  const action = p.action?.trim() ?? '';
  const run = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
  try {
    if (!run) throw new DomainError('unknown_action', `Unknown action "${action}".`);
    return await run(ctx, userId, p);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.code === 'price_above_max') {
      return refusal(err, { price: await priceOf(ctx, p.service?.trim()) });
    }
    return refusal(err);
  }
}

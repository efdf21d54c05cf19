import { boundedText, countryName, type Service, TEXT_LIMITS } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import { balanceOf } from '../billing/index.ts';
import { callingCode, isoOfSmsActivateId, smsActivateId } from '../catalogue/index.ts';
import {
  cancel,
  catalogueCountries,
  finish,
  type OrderDetail,
  type Place,
  PriceAboveMax,
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

/**
 * The place a request asks about: `country` is an SMS-Activate country id (absent or empty: any
 * country), `operator` a name from getOperators (`any` or empty: any operator). Undefined when the
 * id is no country: such a country has no numbers.
 */
function placeOf(p: Params): Place | undefined {
  const c = p.country?.trim() ?? '';
  const op = p.operator?.trim() ?? '';
  const operator = op === '' || op.toLowerCase() === 'any' ? undefined : op.slice(0, 64);
  if (c === '') return { operator };
  if (!/^\d{1,6}$/.test(c)) return undefined;
  const country = isoOfSmsActivateId(Number(c));
  return country ? { country, operator } : undefined;
}

async function services(ctx: AppContext, place: Place = {}): Promise<Service[]> {
  return servicesWithAvailability(ctx, true, undefined, place);
}

/** A country's id in the protocol's numbering, and its name in the protocol's three languages. */
function countryEntry(iso: string) {
  const id = smsActivateId(iso);
  return { id, rus: countryName(iso, 'ru'), eng: countryName(iso), chn: countryName(iso, 'zh') };
}

async function priceOf(ctx: AppContext, code: string | undefined): Promise<number | undefined> {
  return (await services(ctx)).find((s) => s.code === code)?.price;
}

/** The countries answers list: those with SIMs, and the default country (where unknown SIMs count). */
async function countriesWithSims(ctx: AppContext) {
  const { countries, defaultCountry } = await catalogueCountries(ctx);
  return countries.some((c) => c.country === defaultCountry)
    ? countries
    : [...countries, { country: defaultCountry, name: countryName(defaultCountry), sims: 0, operators: [] }];
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
  const place = placeOf(p);
  if (!place) {
    // Unknown service codes still answer BAD_SERVICE, like everywhere else.
    if ((await priceOf(ctx, service)) === undefined) {
      throw new DomainError('service_not_found', `Unknown service "${service}".`);
    }
    throw new DomainError('no_numbers', 'No numbers in this country.');
  }
  const rented = await rent(ctx, userId, service, undefined, {
    ...(maxPrice ? { maxPrice } : {}),
    country: place.country,
    operator: place.operator,
  });
  return (await userOrderDetail(ctx, userId, rented.id))!;
}

const SERVICE_CODE = boundedText(TEXT_LIMITS.serviceCode, 'Service');

/** The country a rental's number counts under (orders from before countries: the default). */
const orderCountry = (ctx: AppContext, o: OrderDetail) => o.country ?? ctx.config.DEFAULT_COUNTRY;

function numberV2(ctx: AppContext, o: OrderDetail) {
  const country = orderCountry(ctx, o);
  return {
    activationId: Number(o.id),
    phoneNumber: digits(o.phoneNumber),
    activationCost: o.price,
    currency: CURRENCY_USD,
    countryCode: smsActivateId(country),
    countryPhoneCode: Number(callingCode(country) ?? 0),
    canGetAnotherSms: o.isRepeatable,
    activationTime: protocolTime(o.createdAt),
    activationEndTime: protocolTime(o.expiresAt),
    activationOperator: o.operator ?? 'any',
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
    countryCode: String(smsActivateId(orderCountry(ctx, o))),
    countryName: countryName(orderCountry(ctx, o)),
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
    if (code && !(await services(ctx)).some((s) => s.code === code))
      throw new DomainError('service_not_found', `Unknown service "${code}".`);
    const place = placeOf(p);
    const served = (await countriesWithSims(ctx)).map((c) => c.country);
    // A country with no SIM (other than the default) is not one we offer: nothing to price.
    if (!place || (place.country && !served.includes(place.country))) return json({});
    const countries = place.country ? [place.country] : served;
    const out: Record<string, Record<string, { cost: number; count: number; physicalCount: number }>> = {};
    for (const country of countries) {
      const list = (await services(ctx, { country, operator: place.operator })).filter(
        (s) => !code || s.code === code,
      );
      out[smsActivateId(country)] = Object.fromEntries(
        list.map((s) => [s.code, { cost: s.price, count: s.available, physicalCount: s.available }]),
      );
    }
    return json(out);
  },
  async getNumbersStatus(ctx, _userId, p) {
    const place = placeOf(p);
    const served = place?.country
      ? (await countriesWithSims(ctx)).some((c) => c.country === place.country)
      : true;
    const list = place && served ? await services(ctx, place) : [];
    // Keys are `<service>_<forwarding>`; we have no call forwarding (suffix 0).
    return json(Object.fromEntries(list.map((s) => [`${s.code}_0`, s.available])));
  },
  async getTopCountriesByService(ctx, _userId, p) {
    const code = p.service?.trim() || undefined;
    const first = (await services(ctx)).find((s) => !code || s.code === code);
    if (code && !first) throw new DomainError('service_not_found', `Unknown service "${code}".`);
    if (!first) return json({});
    const freePrice = p.freePrice === 'true' || p.freePrice === '1';
    // The countries with numbers for the (first) service asked about, most numbers first.
    const rows: { country: string; count: number; price: number; freePriceMap?: Record<string, number> }[] =
      [];
    for (const c of await countriesWithSims(ctx)) {
      const s = (await services(ctx, { country: c.country })).find((x) => x.id === first.id);
      if (!s) continue;
      const row: (typeof rows)[number] = { country: c.country, count: s.available, price: s.price };
      if (freePrice) {
        // What a number costs by operator in the country, and how many there are at that price.
        const map: Record<string, number> = {};
        const byOperator = c.operators.length > 0 ? c.operators.map((o) => o.name) : [undefined];
        for (const operator of byOperator) {
          const o = (await services(ctx, { country: c.country, operator })).find((x) => x.id === first.id);
          if (o && o.available > 0) map[o.price.toFixed(2)] = (map[o.price.toFixed(2)] ?? 0) + o.available;
        }
        row.freePriceMap = map;
      }
      rows.push(row);
    }
    rows.sort((a, b) => b.count - a.count || a.price - b.price);
    return json(
      Object.fromEntries(
        rows.map((r, i) => [
          String(i),
          {
            country: smsActivateId(r.country),
            count: r.count,
            price: r.price,
            retail_price: r.price,
            ...(r.freePriceMap ? { freePriceMap: r.freePriceMap } : {}),
          },
        ]),
      ),
    );
  },
  async getCountries(ctx) {
    return json(
      Object.fromEntries(
        (await countriesWithSims(ctx)).map((c) => {
          const e = countryEntry(c.country);
          return [e.id, { ...e, visible: 1, retry: 1, rent: 0, multiService: 0 }];
        }),
      ),
    );
  },
  async getServicesList(ctx) {
    return json({
      status: 'success',
      services: (await services(ctx)).map((s) => ({ code: s.code, name: s.name })),
    });
  },
  async getOperators(ctx, _userId, p) {
    const place = placeOf(p);
    if (!place) return text('OPERATORS_NOT_FOUND');
    const countries = (await countriesWithSims(ctx)).filter(
      (c) => (!place.country || c.country === place.country) && c.sims > 0,
    );
    if (countries.length === 0) return text('OPERATORS_NOT_FOUND');
    // SIMs whose operator nothing tells are rented as `any` (the protocol's word for every operator).
    const names = (c: (typeof countries)[number]) => {
      const known = c.operators.map((o) => o.name);
      const told = c.operators.reduce((n, o) => n + o.sims, 0);
      return told < c.sims ? [...known, 'any'] : known;
    };
    return json({
      status: 'success',
      countryOperators: Object.fromEntries(countries.map((c) => [smsActivateId(c.country), names(c)])),
    });
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
    if (err instanceof PriceAboveMax) return refusal(err, { price: Number(err.price) });
    if (err.code === 'price_above_max') {
      return refusal(err, { price: await priceOf(ctx, p.service?.trim()) });
    }
    return refusal(err);
  }
}

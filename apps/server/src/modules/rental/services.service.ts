import {
  type CatalogueCountriesResponse,
  countryName,
  formNumberMessage,
  PublicService,
  parseFormNumber,
  patternProblem,
  SERVICE_DEFAULTS,
  type Service,
  type ServiceInput,
  type ServicePricesResponse,
  type SetServicePriceBody,
  validateService,
} from '@simdock/contract';
import type { z } from 'zod';
import type { AppContext, Listener } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { assertNoFieldErrors, badInput, conflict, notFound } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { type AuditActor, recordAudit } from '../audit/index.ts';
import { countryPrices, resolvePrice, servicePriceGrid, setCountryPrice } from '../catalogue/index.ts';
import { simSettings, type UsableSim, usableSims } from '../gateways/index.ts';
import { availabilityCache, watchAvailabilityChanges } from './availability.ts';
import { type CatalogueView, computeCatalogueView, operatorViewKey } from './country-catalogue.ts';
import { keptForSending } from './sending-share.ts';
import {
  codeTakenByOther,
  deleteService,
  findServiceByCode,
  findServiceById,
  insertService,
  listServices,
  type ReuseRule,
  type ServiceRow,
  type ServiceValues,
  toService,
  updateService,
} from './services.queries.ts';

/**
 * A form number (docs/product.md#forms: numbers), or a 400 for hex, exponents, arrays and other misreadings.
 */
function formNumber(value: unknown, fallback: number, field: string, label: string): number {
  if (value === undefined) return fallback;
  const n = parseFormNumber(value);
  if (n === undefined) throw badInput(formNumberMessage(label), field);
  return n;
}

/**
 * Trims text, coerces numbers (non-numeric → 0, docs/product.md#forms), fills defaults, then checks every
 * rule.
 */
export function normalizeServiceInput(input: ServiceInput): ServiceValues {
  const values: ServiceValues = {
    name: input.name.trim(),
    code: input.code.trim(),
    description: (input.description ?? '').trim(),
    price: formNumber(input.price, SERVICE_DEFAULTS.price, 'price', 'Price'),
    stock: formNumber(input.stock, SERVICE_DEFAULTS.stock, 'stock', 'Stock'),
    pattern: (input.pattern ?? '').trim() || SERVICE_DEFAULTS.pattern,
    textContains: (input.textContains ?? '').trim(),
    rentTimeMinutes: formNumber(
      input.rentTimeMinutes,
      SERVICE_DEFAULTS.rentTimeMinutes,
      'rentTimeMinutes',
      'Rent time',
    ),
    isRepeatable: input.isRepeatable ?? false,
    isEnable: input.isEnable ?? true,
  };
  assertNoFieldErrors(validateService(values));
  if (!Number.isInteger(values.stock)) throw badInput('Stock must be a whole number', 'stock');
  if (!Number.isInteger(values.rentTimeMinutes))
    throw badInput('Rent time must be whole minutes', 'rentTimeMinutes');
  if (values.code.length > 32 || !/^[\w.-]+$/.test(values.code)) {
    throw badInput('Code must be 1-32 letters, digits, "_", "-" or "."', 'code');
  }
  const problem = patternProblem(values.pattern);
  if (problem) throw badInput(problem, 'pattern');
  return values;
}

/** Add (no id) or edit; with an acting admin, the change is audited in the same transaction. */
export async function saveService(
  ctx: AppContext,
  input: ServiceInput,
  actor?: AuditActor,
): Promise<Service> {
  const values = normalizeServiceInput(input);
  if (input.id && !isUuid(input.id)) throw notFound('Service not found.', 'service_not_found');
  const id = await ctx.db.tx(async (q) => {
    if (await codeTakenByOther(q, values.code, input.id)) {
      throw conflict(`A service with code "${values.code}" already exists.`, 'code');
    }
    const before = input.id ? await findServiceById(q, input.id) : undefined;
    if (input.id && !before) throw notFound('Service not found.', 'service_not_found');
    const row = input.id ? await updateService(q, input.id, values) : await insertService(q, values);
    if (!row) {
      if (input.id) throw notFound('Service not found.', 'service_not_found');
      throw conflict(`A service with code "${values.code}" already exists.`, 'code');
    }
    if (actor) {
      await recordAudit(q, {
        actor,
        kind: input.id ? 'service.update' : 'service.create',
        targetId: row.id,
        targetLabel: row.code,
        before: before ? toService(before) : null,
        after: toService(row),
        at: ctx.clock.now(),
      });
    }
    return row.id;
  });
  availabilityChanged(ctx);
  const [saved] = await servicesWithAvailability(ctx, false, id);
  return saved!;
}

/**
 * The number reuse rule as configured, at `now` (NUMBER_REUSE_LIMIT, NUMBER_REUSE_COOLDOWN_MINUTES),
 * with the SIMs kept for sending among these usable SIMs (the SIM setting's percent).
 */
export function reuseRuleAt(ctx: AppContext, now: Date, sims: readonly UsableSim[]): ReuseRule {
  // Every usable SIM row carries the percent; without SIMs nothing is kept anyway.
  const simsKeptForSendingPercent = sims[0]?.kept_percent ?? 0;
  return {
    limit: ctx.config.NUMBER_REUSE_LIMIT,
    freeBefore: new Date(now.getTime() - ctx.config.NUMBER_REUSE_COOLDOWN_MINUTES * 60_000),
    now,
    keptForSending: keptForSending(sims, simsKeptForSendingPercent),
  };
}

/** The sending share now (the admin Overview): its percent and the SIMs it keeps from rentals. */
export async function sendingShare(
  ctx: AppContext,
): Promise<{ simsKeptForSending: number; simsKeptForSendingPercent: number }> {
  const [sims, settings] = await Promise.all([
    usableSims(ctx.db, ctx.clock.now(), ctx.config.DEFAULT_COUNTRY),
    simSettings(ctx.db),
  ]);
  return {
    simsKeptForSending: keptForSending(sims, settings.simsKeptForSendingPercent),
    simsKeptForSendingPercent: settings.simsKeptForSendingPercent,
  };
}

/** Every service with its `available`, in all and per country and operator, on the pool for heavy reads (Db.heavy). */
async function computeAvailability(ctx: AppContext): Promise<CatalogueView> {
  const now = ctx.clock.now();
  const sims = await usableSims(ctx.db.heavy, now, ctx.config.DEFAULT_COUNTRY);
  const prices = await countryPrices(ctx.db.heavy, null);
  return computeCatalogueView(ctx.db.heavy, sims, reuseRuleAt(ctx, now, sims), prices);
}

const catalogue = (ctx: AppContext) => availabilityCache<CatalogueView>(ctx, () => computeAvailability(ctx));

/**
 * After a change that availability depends on commits (a rent, a release, a service or spent-number
 * change): the next caller of this process gets a fresh computation.
 */
export function availabilityChanged(ctx: AppContext): void {
  catalogue(ctx).invalidate();
}

/** Listens for other processes' changes (order and gateway events); returns the stopper. */
/** Other processes' rents and releases (and gateway edits) reach this one's kept availability. */
export const catalogueListener: Listener = {
  name: 'catalogue changes',
  start: (ctx) => watchAvailabilityChanges(ctx, () => catalogue(ctx)),
};

/** The catalogue's answer as JSON text, per kept list and kind of caller (built once each). */
const answerTexts = new WeakMap<Service[], { admin?: string; public?: string }>();

/** Where a catalogue answer is asked about: a country, and an operator in it. */
export interface Place {
  country?: string | undefined;
  operator?: string | undefined;
}

/**
 * The services of a place from the kept computation: a country's or an operator's prices and
 * availability (a place without SIMs: nothing available, at its prices); without a country, all SIMs
 * at the lowest price a rent would pay (`forAdmin`: the services' own prices).
 */
async function servicesAt(ctx: AppContext, place: Place, forAdmin = false): Promise<Service[]> {
  const view = await catalogue(ctx).services();
  if (!place.country) return forAdmin ? view.all : view.lowest;
  const list = place.operator
    ? view.byOperator.get(operatorViewKey(place.country, place.operator))
    : view.byCountry.get(place.country);
  if (list) return list;
  // No SIM there now: every service is unavailable, at the price it would have.
  const prices = await countryPrices(ctx.db, null);
  return view.all.map((s) => ({
    ...s,
    country: place.country,
    available: 0,
    price: Number(
      resolvePrice(s.price.toFixed(2), prices.get(s.id) ?? [], place.country!, place.operator ?? null),
    ),
  }));
}

/**
 * `Service/getall`'s answer as JSON text (ServiceListResponse; AdminServiceListResponse for an
 * admin: every service, with the admin fields): the callers of one kept computation share the text.
 */
export async function catalogueAnswer(ctx: AppContext, admin: boolean, place: Place = {}): Promise<string> {
  const all = await servicesAt(ctx, place, admin);
  let texts = answerTexts.get(all);
  if (!texts) {
    texts = {};
    answerTexts.set(all, texts);
  }
  if (admin) {
    texts.admin ??= JSON.stringify({ code: 1, services: all });
    return texts.admin;
  }
  texts.public ??= JSON.stringify({
    code: 1,
    services: all.filter((s) => s.isEnable).map((s) => PublicService.parse(s)),
  });
  return texts.public;
}

/**
 * Services with their `available` count (all, only enabled ones, or one) at a place (see
 * servicesAt). All services come from the process's shared computation (./availability.ts); one
 * service (after an admin saved it) is computed on its own, over all SIMs at its own price.
 */
export async function servicesWithAvailability(
  ctx: AppContext,
  onlyEnabled: boolean,
  onlyId?: string,
  place: Place = {},
): Promise<Service[]> {
  if (onlyId !== undefined) {
    const now = ctx.clock.now();
    const sims = await usableSims(ctx.db, now, ctx.config.DEFAULT_COUNTRY);
    return listServices(ctx.db, sims, onlyEnabled, reuseRuleAt(ctx, now, sims), onlyId);
  }
  const all = await servicesAt(ctx, place);
  return onlyEnabled ? all.filter((s) => s.isEnable) : all;
}

/** The countries with usable SIMs (most first) and the deployment's default country. */
export async function catalogueCountries(ctx: AppContext): Promise<CatalogueCountriesResponse> {
  const view = await catalogue(ctx).services();
  return { code: 1, defaultCountry: ctx.config.DEFAULT_COUNTRY, countries: view.countries };
}

export async function removeService(
  ctx: AppContext,
  ref: string | { id: string },
  actor?: AuditActor,
): Promise<void> {
  const key = typeof ref === 'string' ? ref : ref.id;
  await ctx.db.tx(async (q) => {
    const row = isUuid(key) ? await findServiceById(q, key) : await findServiceByCode(q, key);
    if (!row) throw notFound('Service not found.', 'service_not_found');
    const outcome = await deleteService(q, row.id);
    if (outcome === 'missing') throw notFound('Service not found.', 'service_not_found');
    if (outcome === 'has_orders') {
      throw conflict(
        'This service has orders and cannot be deleted; disable it instead to stop new rentals.',
      );
    }
    if (actor) {
      await recordAudit(q, {
        actor,
        kind: 'service.delete',
        targetId: row.id,
        targetLabel: row.code,
        before: toService(row),
        at: ctx.clock.now(),
      });
    }
  });
  availabilityChanged(ctx);
}

/** A service by id, or a 404 that says so. */
async function serviceOrNotFound(q: Queryable, serviceId: string): Promise<ServiceRow> {
  const row = isUuid(serviceId) ? await findServiceById(q, serviceId) : undefined;
  if (!row) throw notFound('Service not found.', 'service_not_found');
  return row;
}

/** A service's own price and its prices per country and operator (Service Manager's grid). */
export async function servicePrices(ctx: AppContext, serviceId: string): Promise<ServicePricesResponse> {
  const row = await serviceOrNotFound(ctx.db, serviceId);
  return {
    code: 1,
    serviceId: row.id,
    price: Number(row.price),
    prices: await servicePriceGrid(ctx.db, row.id),
  };
}

/**
 * Sets or removes one country's (or operator's) price of a service, audited in the same
 * transaction. Orders keep the price they were rented at: only new rents pay the new one.
 */
export async function setServicePrice(
  ctx: AppContext,
  body: z.output<typeof SetServicePriceBody>,
  actor: AuditActor,
): Promise<ServicePricesResponse> {
  const at = ctx.clock.now();
  const answer = await ctx.db.tx(async (q) => {
    const row = await serviceOrNotFound(q, body.serviceId);
    const operator = body.operator?.trim() || null;
    const before = await setCountryPrice(q, {
      serviceId: row.id,
      country: body.country,
      operator,
      price: body.price,
      at,
    });
    const where = `${countryName(body.country)}${operator ? `, ${operator}` : ''}`;
    await recordAudit(q, {
      actor,
      kind: 'service.countryPrice',
      targetId: row.id,
      targetLabel: `${row.code} in ${where}`,
      before: before === null ? null : { country: body.country, operator, price: Number(before) },
      after: body.price === null ? null : { country: body.country, operator, price: body.price },
      at,
    });
    return {
      code: 1 as const,
      serviceId: row.id,
      price: Number(row.price),
      prices: await servicePriceGrid(q, row.id),
    };
  });
  availabilityChanged(ctx);
  return answer;
}

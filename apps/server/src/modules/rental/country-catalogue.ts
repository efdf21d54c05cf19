import { type CatalogueCountry, countryName, type Service } from '@simdock/contract';
import type { Reader } from '../../db/db.ts';
import { type CountryPrice, resolvePrice } from '../catalogue/index.ts';
import type { UsableSim } from '../gateways/index.ts';
import { listServices, type ReuseRule } from './services.queries.ts';

// The catalogue by country and operator: what each could rent now and at which price. A SIM counts
// under the country and operator the catalogue module tells (an admin's correction, its IMSI, …).

/** The same operator whatever the case or spaces ("Vodafone" = "vodafone "). */
export const operatorKey = (operator: string | null | undefined): string =>
  (operator ?? '').trim().toLowerCase();

/** Whether a SIM is one a rent in `country` (and from `operator`) may take. */
export function simMatches(sim: UsableSim, country?: string, operator?: string): boolean {
  if (country && sim.country !== country) return false;
  return !operator || operatorKey(sim.operator) === operatorKey(operator);
}

/** Rentable SIMs at one price: a rent takes the cheapest tier that has a number. */
export interface PriceTier {
  /** Exact decimal text. */
  price: string;
  sims: UsableSim[];
}

/**
 * The SIMs grouped by what a rental of the service costs on them (their country's or operator's
 * price, else the service's), cheapest first. Without SIMs, one empty tier at the price asked about,
 * so a maximum price is still checked against it.
 */
export function priceTiers(
  servicePrice: string,
  prices: readonly CountryPrice[],
  sims: readonly UsableSim[],
  country?: string,
  operator?: string,
): PriceTier[] {
  if (sims.length === 0) {
    return [{ price: resolvePrice(servicePrice, prices, country ?? null, operator ?? null), sims: [] }];
  }
  const byPrice = new Map<string, UsableSim[]>();
  for (const sim of sims) {
    const price = resolvePrice(servicePrice, prices, sim.country, sim.operator);
    const list = byPrice.get(price) ?? [];
    list.push(sim);
    byPrice.set(price, list);
  }
  return [...byPrice]
    .map(([price, list]) => ({ price, sims: list }))
    .sort((a, b) => Number(a.price) - Number(b.price));
}

/** The catalogue as a process keeps it (services.service.ts): the whole pool, each country, each operator. */
export interface CatalogueView {
  /** Every service over all SIMs, at its own price (Service Manager's list). */
  all: Service[];
  /** The same with the lowest price a rent without a country would pay now (a country's, if lower). */
  lowest: Service[];
  /** Per country: `available` there, and the lowest price with a number there. */
  byCountry: Map<string, Service[]>;
  /** Per country and operator (key `country\0operator`, operatorKey): that operator's price. */
  byOperator: Map<string, Service[]>;
  countries: CatalogueCountry[];
}

export const operatorViewKey = (country: string, operator: string | null | undefined) =>
  `${country}\u0000${operatorKey(operator)}`;

interface Group {
  country: string;
  operator: string | null;
  sims: UsableSim[];
}

/** Rounds a price number to its exact two-decimal text (prices are kept with two decimals). */
const priceText = (n: number) => n.toFixed(2);

/**
 * Computes the view: one availability count over all SIMs, then one per country and per operator
 * of a country with several (a country or operator holding every SIM reuses the count above it).
 */
export async function computeCatalogueView(
  q: Reader,
  sims: UsableSim[],
  rule: ReuseRule,
  prices: Map<string, CountryPrice[]>,
): Promise<CatalogueView> {
  const all = await listServices(q, sims, false, rule);
  const countries = new Map<string, UsableSim[]>();
  const operators = new Map<string, Group>();
  for (const sim of sims) {
    countries.set(sim.country, [...(countries.get(sim.country) ?? []), sim]);
    const key = operatorViewKey(sim.country, sim.operator);
    const g = operators.get(key) ?? { country: sim.country, operator: sim.operator, sims: [] };
    g.sims.push(sim);
    operators.set(key, g);
  }

  const countIn = async (subset: UsableSim[], whole: Service[] | undefined) =>
    whole ?? listServices(q, subset, false, rule, undefined, sims);

  const byCountry = new Map<string, Service[]>();
  for (const [country, list] of countries) {
    byCountry.set(country, await countIn(list, list.length === sims.length ? all : undefined));
  }
  const byOperator = new Map<string, Service[]>();
  for (const [key, g] of operators) {
    const inCountry = countries.get(g.country)!;
    const counted = await countIn(
      g.sims,
      g.sims.length === inCountry.length ? byCountry.get(g.country) : undefined,
    );
    byOperator.set(
      key,
      counted.map((s) => ({
        ...s,
        country: g.country,
        price: Number(resolvePrice(priceText(s.price), prices.get(s.id) ?? [], g.country, g.operator)),
      })),
    );
  }

  // A country's price: the cheapest of its operators that has a number, else the country's own.
  for (const [country, list] of byCountry) {
    const groups = [...operators.values()].filter((g) => g.country === country);
    byCountry.set(
      country,
      list.map((s) => {
        let best: number | undefined;
        for (const g of groups) {
          const o = byOperator.get(operatorViewKey(country, g.operator))?.find((x) => x.id === s.id);
          if (o && o.available > 0 && (best === undefined || o.price < best)) best = o.price;
        }
        const own = Number(resolvePrice(priceText(s.price), prices.get(s.id) ?? [], country, null));
        return { ...s, country, price: best ?? own };
      }),
    );
  }
  // All countries: the cheapest country that has a number, else the service's own price.
  const lowest = all.map((s) => {
    let best: number | undefined;
    for (const list of byCountry.values()) {
      const c = list.find((x) => x.id === s.id);
      if (c && c.available > 0 && (best === undefined || c.price < best)) best = c.price;
    }
    return best === undefined ? s : { ...s, price: best };
  });

  const summary: CatalogueCountry[] = [...countries]
    .map(([country, list]) => ({
      country,
      name: countryName(country),
      sims: list.length,
      operators: [...operators.values()]
        .filter((g) => g.country === country && g.operator)
        .map((g) => ({ name: g.operator!, sims: g.sims.length }))
        .sort((a, b) => b.sims - a.sims || a.name.localeCompare(b.name)),
    }))
    .sort((a, b) => b.sims - a.sims || a.name.localeCompare(b.name));
  return { all, lowest, byCountry, byOperator, countries: summary };
}

// Which price applies: pure rules over the price tables, exact decimal text in and out.

export interface CountryPrice {
  country: string;
  /** '' = every operator of the country. */
  operator: string;
  price: string;
}

const sameOperator = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * A rental's price in `country` from `operator`: that operator's own price in the country, else the
 * country's, else the service's own (`servicePrice`). No country: the service's own.
 */
export function resolvePrice(
  servicePrice: string,
  rows: readonly CountryPrice[],
  country: string | null,
  operator: string | null,
): string {
  if (!country) return servicePrice;
  let countryPrice: string | undefined;
  for (const r of rows) {
    if (r.country !== country) continue;
    if (r.operator === '') countryPrice = r.price;
    else if (operator && sameOperator(r.operator, operator)) return r.price;
  }
  return countryPrice ?? servicePrice;
}

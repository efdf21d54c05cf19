import { z } from 'zod';
import { boundedText, TEXT_LIMITS as L } from '../limits.ts';
import { isMoney } from '../money.ts';
import { isPrice } from '../pricing.ts';
import { PRICE_MAX } from '../rules.ts';
import { COUNTRY_CODE_MESSAGE, CountryCode, MessageCountry, OperatorName } from './places.ts';

export {
  COUNTRY_CODE_MESSAGE,
  CountryCode,
  MessageCountry,
  OPERATOR_MESSAGE,
  OperatorName,
  ORIGIN_SOURCES,
  OriginSource,
  SimOrigin,
} from './places.ts';

// Countries and operators: what a SIM's card says about where it is from (docs/product.md,
// "Countries and operators"), the prices per country of rentals and messages, and renting by them.

export const PRICE_MESSAGE = 'Enter a price in USD: 0 or more, with at most 4 decimals.';

/** A price: USD ≥ 0 with up to 4 decimals, as a number or decimal text. */
const Price = z
  .union([z.number(), z.string().max(32)], { error: PRICE_MESSAGE })
  .refine(isPrice, PRICE_MESSAGE);

/** POST /api/Gateway/setSimOrigin: an admin corrects a SIM's country and operator (audited); null clears. */
export const SetSimOriginBody = z.object({
  gatewayId: boundedText(L.id, 'Gateway id'),
  port: boundedText(L.port, 'Port'),
  country: CountryCode.nullable(),
  operator: OperatorName.nullable().optional(),
});
export type SetSimOriginBody = z.input<typeof SetSimOriginBody>;

// ─── The catalogue by country: POST /api/Catalogue/countries ───────────────────────────────────────

export const CatalogueOperator = z.object({
  name: z.string(),
  /** Usable SIMs of this operator in the country. */
  sims: z.number().int(),
});

export const CatalogueCountry = z.object({
  country: z.string(),
  /** The country's English name. */
  name: z.string(),
  /** Usable SIMs in the country (what rents could take, before each service's own rules). */
  sims: z.number().int(),
  operators: z.array(CatalogueOperator),
});
export type CatalogueCountry = z.infer<typeof CatalogueCountry>;

/** Public: the countries with usable SIMs, most first; the default country is where unknown SIMs count. */
export const CatalogueCountriesResponse = z.object({
  code: z.literal(1),
  defaultCountry: z.string(),
  countries: z.array(CatalogueCountry),
});
export type CatalogueCountriesResponse = z.infer<typeof CatalogueCountriesResponse>;

// ─── Rental prices per country: Service Manager's grid ─────────────────────────────────────────────

export const ServiceCountryPrice = z.object({
  country: z.string(),
  /** null: every operator of the country. */
  operator: z.string().nullable(),
  price: z.number(),
});
export type ServiceCountryPrice = z.infer<typeof ServiceCountryPrice>;

const serviceId = boundedText(L.id, 'Service id');

export const ServicePricesBody = z.object({ serviceId });
/** A service's own price (for countries without theirs) and its prices per country and operator. */
export const ServicePricesResponse = z.object({
  code: z.literal(1),
  serviceId: z.string(),
  price: z.number(),
  prices: z.array(ServiceCountryPrice),
});
export type ServicePricesResponse = z.infer<typeof ServicePricesResponse>;

export const RENTAL_PRICE_MESSAGE = 'Enter a price above 0 and at most 1,000,000, with at most two decimals.';

/** A rental price, as the service's own: above 0, at most PRICE_MAX, two decimals. */
export const rentalPriceOk = (price: number): boolean =>
  Number.isFinite(price) && price > 0 && price <= PRICE_MAX && isMoney(price);

/** Sets (a price) or removes (null) one country's or one operator's price; audited; new orders only. */
export const SetServicePriceBody = z.object({
  serviceId,
  country: CountryCode,
  operator: OperatorName.nullable().optional(),
  price: z
    .union([z.number(), z.string().max(32)], { error: RENTAL_PRICE_MESSAGE })
    .transform((v) =>
      typeof v === 'number' ? v : /^\s*\d{1,7}(\.\d{1,2})?\s*$/.test(v) ? Number(v) : Number.NaN,
    )
    .refine(rentalPriceOk, RENTAL_PRICE_MESSAGE)
    .nullable(),
});
export type SetServicePriceBody = z.input<typeof SetServicePriceBody>;

// ─── Message prices per destination country ────────────────────────────────────────────────────────

/** The destinations' rules: listed countries, and whether a country not listed may be sent to. */
export const MessageCountriesResponse = z.object({
  code: z.literal(1),
  otherCountriesEnabled: z.boolean(),
  countries: z.array(MessageCountry),
});
export type MessageCountriesResponse = z.infer<typeof MessageCountriesResponse>;

/**
 * POST /api/Admin/setMessageCountry: lists a country (its prices, null for the default, and whether
 * it is enabled), removes it (`remove`), or with `otherCountriesEnabled` alone sets the rule for the
 * countries not listed. Audited.
 */
export const SetMessageCountryBody = z
  .object({
    country: CountryCode.optional(),
    smsPricePerSegment: Price.nullable().optional(),
    mmsPrice: Price.nullable().optional(),
    enabled: z.boolean().optional(),
    remove: z.boolean().optional(),
    otherCountriesEnabled: z.boolean().optional(),
  })
  .refine((b) => b.country !== undefined || b.otherCountriesEnabled !== undefined, {
    message: COUNTRY_CODE_MESSAGE,
    path: ['country'],
  });
export type SetMessageCountryBody = z.input<typeof SetMessageCountryBody>;

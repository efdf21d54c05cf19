import { z } from 'zod';
import { boundedText, TEXT_LIMITS as L } from '../limits.ts';

// The small shapes of countries and operators that other areas' bodies and answers use (an order's
// country, a SIM's origin, a destination's prices). Apart from the catalogue's own schemas so that
// a page using only these does not load the catalogue (the sign-in route's budget).

export const COUNTRY_CODE_MESSAGE = 'Choose a country by its two-letter code (for example DE).';
export const OPERATOR_MESSAGE = 'Enter the operator’s name (at most 64 characters).';

/** An ISO 3166-1 alpha-2 country code, upper case ("DE"); lower case input is accepted. */
export const CountryCode = z
  .string({ error: COUNTRY_CODE_MESSAGE })
  .max(8, COUNTRY_CODE_MESSAGE)
  .transform((s) => s.trim().toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{2}$/, COUNTRY_CODE_MESSAGE));

/** An operator's name as the SIMs report it ("Vodafone"); `any` (the protocols' word) means none. */
export const OperatorName = boundedText(L.operator, 'Operator', OPERATOR_MESSAGE).transform((s) => s.trim());

/**
 * Where a SIM's country came from: its IMSI (MCC + MNC), the operator text the device reports
 * ("26202 Vodafone"), its ICCID (89 + the country calling code), its own number, an admin's
 * correction, or nothing (it counts under the deployment's default country).
 */
export const ORIGIN_SOURCES = ['imsi', 'operator', 'iccid', 'number', 'admin', 'default'] as const;
export const OriginSource = z.enum(ORIGIN_SOURCES);
export type OriginSource = z.infer<typeof OriginSource>;

/** A SIM's country and operator as SimDock counts it. */
export const SimOrigin = z.object({
  country: z.string(),
  operator: z.string().nullable(),
  /** What told the country. */
  source: OriginSource,
  /** An admin corrected the country or operator (kept across scans until the card changes). */
  corrected: z.boolean(),
});
export type SimOrigin = z.infer<typeof SimOrigin>;

/** One destination country's messaging: its own prices (null: the defaults) and whether it is enabled. */
export const MessageCountry = z.object({
  country: z.string(),
  name: z.string(),
  smsPricePerSegment: z.number().nullable(),
  mmsPrice: z.number().nullable(),
  enabled: z.boolean(),
});
export type MessageCountry = z.infer<typeof MessageCountry>;

/**
 * POST /api/Service/getall takes an optional country (and operator): each service's price and
 * `available` are then that country's. Without one, prices are the services' own and `available`
 * counts every country.
 */
export const ServiceListBody = z
  .object({
    country: CountryCode.optional(),
    operator: OperatorName.optional(),
  })
  .optional();
export type ServiceListBody = z.input<typeof ServiceListBody>;

import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/min';
import metadata from 'libphonenumber-js/min/metadata';

// A phone number's country, the same on the server (what a message costs, whether it may be sent)
// and on the sending page (its preview). A subpath of the contract, not in its index: the tables
// are large and only the pages that price by destination should load them.

/** An ISO 3166-1 alpha-2 code (upper case) that libphonenumber knows. */
export function isCountryCode(s: unknown): s is string {
  return typeof s === 'string' && /^[A-Z]{2}$/.test(s) && isSupportedCountry(s);
}

/** Calling code → its countries, the main one first (libphonenumber's order: 1 → US, 7 → RU, 44 → GB). */
const countriesOfCode = new Map<string, readonly string[]>();
for (const [code, countries] of Object.entries(metadata.country_calling_codes)) {
  const real = countries.filter((c) => isCountryCode(c));
  if (real.length > 0) countriesOfCode.set(code, real);
}
const codeOfCountry = new Map<string, string>();
for (const [code, countries] of countriesOfCode) for (const c of countries) codeOfCountry.set(c, code);

/** Whether `code` ("49") is a country calling code. */
export const isCallingCode = (code: string): boolean => countriesOfCode.has(code);

/** A country's calling code ("DE" → "49"), or undefined. */
export const callingCodeOf = (country: string): string | undefined => codeOfCountry.get(country);

/** The main country of a calling code ("1" → US, "44" → GB), or null. */
export function mainCountryOfCode(code: string): string | null {
  return countriesOfCode.get(code)?.[0] ?? null;
}

/**
 * The country of a phone number in international format ("+84912345678", "4915112345678",
 * "0049 151 …"); a number whose calling code is shared but whose national part fits none of its
 * countries gets the code's main country. Null for anything else.
 */
export function countryOfNumber(number: string): string | null {
  if (typeof number !== 'string') return null;
  let digits = number.trim().replace(/[\s().-]/g, '');
  if (digits.startsWith('+')) digits = digits.slice(1);
  else if (digits.startsWith('00')) digits = digits.slice(2);
  if (!/^[1-9]\d{5,14}$/.test(digits)) return null;
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (!parsed) return null;
  if (parsed.country && isCountryCode(parsed.country)) return parsed.country;
  return mainCountryOfCode(parsed.countryCallingCode);
}

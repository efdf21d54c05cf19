import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';
import metadata from 'libphonenumber-js/min/metadata';
import { all as mccMncRecords } from 'mcc-mnc-list';

// Where a SIM comes from (country, operator), from what its gateway reports about it. Pure: no
// database, no network; the tables are built once when the module loads.

export type OriginSource = 'imsi' | 'operator' | 'iccid' | 'number';

export interface SimFacts {
  imsi: string | null;
  operator: string | null;
  iccid: string | null;
  number: string | null;
}

export interface SimOrigin {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string | null;
  /** The operator's brand (or name). */
  operator: string | null;
  /** The evidence that gave the country. */
  source: OriginSource | null;
}

/** An ISO 3166-1 alpha-2 code (upper case) that libphonenumber knows. */
export function isCountryCode(s: unknown): s is string {
  return typeof s === 'string' && /^[A-Z]{2}$/.test(s) && isSupportedCountry(s);
}

// --- Calling codes ---------------------------------------------------------------------------

/** Calling code → its countries, the main one first (libphonenumber's order: 1 → US, 7 → RU, 44 → GB). */
const countriesOfCode = new Map<string, readonly string[]>();
for (const [code, countries] of Object.entries(metadata.country_calling_codes)) {
  const real = countries.filter((c) => isCountryCode(c));
  if (real.length > 0) countriesOfCode.set(code, real);
}
const callingCodeOf = new Map<string, string>();
for (const [code, countries] of countriesOfCode) for (const c of countries) callingCodeOf.set(c, code);

function mainCountryOfCode(code: string): string | null {
  return countriesOfCode.get(code)?.[0] ?? null;
}

// --- Numbers ---------------------------------------------------------------------------------

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

// --- ICCIDs ----------------------------------------------------------------------------------

/**
 * An ICCID is "89" (telecom), then the country's calling code, then the issuer. Some issuers pad
 * the code with a zero (US SIMs read "8901…"), and no calling code starts with 0, so one leading 0
 * is skipped. The longest prefix that is a real calling code wins. Masked ICCIDs give nothing.
 */
function iccidCallingCode(iccid: string): string | null {
  const s = iccid.trim().replace(/[\s-]/g, '');
  if (!/^89\d{2}[0-9A-Fa-f*]*$/.test(s)) return null;
  let rest = s.slice(2);
  if (rest.startsWith('0')) rest = rest.slice(1);
  for (const length of [3, 2, 1]) {
    const code = rest.slice(0, length);
    if (code.length === length && /^\d+$/.test(code) && countriesOfCode.has(code)) return code;
  }
  return null;
}

// --- MCC / MNC -------------------------------------------------------------------------------

/** The package's record as it really is: brand, operator and country code can be null. */
interface MccMncRecord {
  readonly countryCode: string | null;
  readonly mcc: string;
  readonly mnc: string | null;
  readonly brand: string | null;
  readonly operator: string | null;
  readonly status: string | null;
}

interface Network {
  country: string | null;
  operator: string | null;
}

/**
 * The package writes a few shared MCCs as "AU/CC/CX" or "BL/GF/GP/MF/MQ", and Abkhazia as
 * "GE-AB": one country each, the main country of a calling code when a part is one.
 */
function recordCountry(raw: string | null): string | null {
  if (!raw) return null;
  const parts = raw
    .split('/')
    .map((p) => p.trim().slice(0, 2).toUpperCase())
    .filter((p) => isCountryCode(p));
  const main = parts.find((p) => mainCountryOfCode(callingCodeOf.get(p) ?? '') === p);
  return main ?? parts[0] ?? null;
}

function clean(text: string | null | undefined): string | null {
  const t = text?.trim();
  return t ? t : null;
}

const networks = new Map<string, Network>(); // MCC + MNC (2 or 3 digits)
const countryOfMcc = new Map<string, string>(); // the country most of the MCC's networks are in

{
  const records: readonly MccMncRecord[] = mccMncRecords();
  const byMcc = new Map<string, Map<string, number>>();
  for (const r of records) {
    const country = recordCountry(r.countryCode);
    if (!country || !/^\d{3}$/.test(r.mcc)) continue;
    const counts = byMcc.get(r.mcc) ?? new Map<string, number>();
    counts.set(country, (counts.get(country) ?? 0) + 1);
    byMcc.set(r.mcc, counts);
  }
  for (const [mcc, counts] of byMcc) {
    let best: string | null = null;
    let most = 0;
    for (const [country, n] of counts) {
      if (n > most) [best, most] = [country, n];
    }
    if (best) countryOfMcc.set(mcc, best);
  }
  // One MCC+MNC can be listed for several territories (310 260 for US, PR and VI; 234 50 for GB,
  // GG and JE) or twice (an old and a new operator): the MCC's own country wins, then a network
  // in operation, then the first listed.
  const rank = (r: MccMncRecord) =>
    (recordCountry(r.countryCode) === countryOfMcc.get(r.mcc) ? 0 : 2) + (r.status === 'Operational' ? 0 : 1);
  const chosen = new Map<string, MccMncRecord>();
  for (const r of records) {
    if (!/^\d{3}$/.test(r.mcc) || !r.mnc || !/^\d{2,3}$/.test(r.mnc)) continue;
    const key = r.mcc + r.mnc;
    const held = chosen.get(key);
    if (!held || rank(r) < rank(held)) chosen.set(key, r);
  }
  for (const [key, r] of chosen) {
    networks.set(key, {
      country: recordCountry(r.countryCode),
      operator: clean(r.brand) ?? clean(r.operator),
    });
  }
}

/** MCC + MNC; a known MCC with an unknown MNC still tells the country. */
function network(mcc: string, mncs: readonly string[]): Network | null {
  for (const mnc of mncs) {
    const found = networks.get(mcc + mnc);
    if (found) return found;
  }
  const country = countryOfMcc.get(mcc);
  return country ? { country, operator: null } : null;
}

function imsiNetwork(imsi: string): Network | null {
  const s = imsi.trim();
  if (!/^\d{6,15}$/.test(s)) return null;
  // The MNC's length is not in the IMSI: a 3-digit MNC is tried first, then 2 digits.
  return network(s.slice(0, 3), [s.slice(3, 6), s.slice(3, 5)]);
}

/** Ejoin's `opr`: "26202 Vodafone", "310260" or a bare name ("T-Mobile"). */
function operatorText(text: string): { network: Network | null; name: string | null } {
  const s = text.trim();
  const named = (t: string | undefined) => {
    const n = t?.trim();
    return n && n.length <= 64 && /\p{L}/u.test(n) ? n : null;
  };
  const coded = /^(\d{3})(\d{2,3})(?:[\s:,/_-]+(.*))?$/.exec(s);
  if (coded) return { network: network(coded[1]!, [coded[2]!]), name: named(coded[3]) };
  return { network: null, name: named(s) };
}

// --- Together --------------------------------------------------------------------------------

function text(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

function compute(facts: SimFacts): SimOrigin {
  const imsi = text(facts.imsi) ? imsiNetwork(facts.imsi!) : null;
  const opr = text(facts.operator) ? operatorText(facts.operator!) : { network: null, name: null };
  const operator = imsi?.operator ?? opr.name ?? opr.network?.operator ?? null;

  if (imsi?.country) return { country: imsi.country, operator, source: 'imsi' };
  if (opr.network?.country) return { country: opr.network.country, operator, source: 'operator' };

  const numberCountry = text(facts.number) ? countryOfNumber(facts.number!) : null;
  const code = text(facts.iccid) ? iccidCallingCode(facts.iccid!) : null;
  if (code) {
    // A shared calling code (1, 7, 44, …) names its main country unless the number is more precise.
    if (numberCountry && callingCodeOf.get(numberCountry) === code)
      return { country: numberCountry, operator, source: 'number' };
    return { country: mainCountryOfCode(code), operator, source: 'iccid' };
  }
  if (numberCountry) return { country: numberCountry, operator, source: 'number' };
  return { country: null, operator, source: null };
}

// A catalogue computation asks for thousands of SIMs, most of them unchanged since the last time.
const MEMO_LIMIT = 20_000;
const memo = new Map<string, SimOrigin>();

/** The SIM's country and operator, from the best evidence there is. Never throws. */
export function simOrigin(facts: SimFacts): SimOrigin {
  if (!facts || typeof facts !== 'object') return { country: null, operator: null, source: null };
  const key = [facts.imsi, facts.operator, facts.iccid, facts.number]
    .map((v) => text(v) ?? '')
    .join('\u0000');
  let origin = memo.get(key);
  if (!origin) {
    try {
      origin = compute(facts);
    } catch {
      origin = { country: null, operator: null, source: null };
    }
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, origin);
  }
  return { ...origin };
}

/** A SIM's place, with what an admin corrected there (kept until another card is seen). */
export interface SimFactsWithCorrection extends SimFacts {
  countryOverride: string | null;
  operatorOverride: string | null;
}

/**
 * The country and operator SimDock counts a SIM under: an admin's correction, else what the SIM
 * tells (simOrigin), else the deployment's default country.
 */
export function effectiveOrigin(
  facts: SimFactsWithCorrection,
  defaultCountry: string,
): {
  country: string;
  operator: string | null;
  source: OriginSource | 'admin' | 'default';
  corrected: boolean;
} {
  const told = simOrigin(facts);
  const corrected = facts.countryOverride !== null || facts.operatorOverride !== null;
  const operator = facts.operatorOverride ?? told.operator;
  if (facts.countryOverride) return { country: facts.countryOverride, operator, source: 'admin', corrected };
  if (told.country && told.source) return { country: told.country, operator, source: told.source, corrected };
  return { country: defaultCountry, operator, source: 'default', corrected };
}

/** A country's calling code ("DE" → "49"); null when libphonenumber has none for it. */
export function callingCode(iso: string): string | null {
  return callingCodeOf.get(iso) ?? null;
}

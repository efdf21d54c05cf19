import { isSupportedCountry } from 'libphonenumber-js';

// SMS-Activate's country numbering, as its handler API uses it (`getCountries`, `country=`).

/** SMS-Activate's own ids. 12 is its "USA (virtual)": the US is 187 here, and 12 names no country. */
const KNOWN: ReadonlyArray<readonly [number, string]> = [
  [0, 'RU'],
  [1, 'UA'],
  [2, 'KZ'],
  [3, 'CN'],
  [4, 'PH'],
  [5, 'MM'],
  [6, 'ID'],
  [7, 'MY'],
  [8, 'KE'],
  [9, 'TZ'],
  [10, 'VN'],
  [11, 'KG'],
  [13, 'IL'],
  [14, 'HK'],
  [15, 'PL'],
  [16, 'GB'],
  [17, 'MG'],
  [18, 'CD'],
  [19, 'NG'],
  [20, 'MO'],
  [21, 'EG'],
  [22, 'IN'],
  [23, 'IE'],
  [24, 'KH'],
  [25, 'LA'],
  [26, 'HT'],
  [27, 'CI'],
  [28, 'GM'],
  [29, 'RS'],
  [30, 'YE'],
  [31, 'ZA'],
  [32, 'RO'],
  [33, 'CO'],
  [34, 'EE'],
  [35, 'AZ'],
  [36, 'CA'],
  [37, 'MA'],
  [38, 'GH'],
  [39, 'AR'],
  [40, 'UZ'],
  [41, 'CM'],
  [42, 'TD'],
  [43, 'DE'],
  [44, 'LT'],
  [45, 'HR'],
  [46, 'SE'],
  [47, 'IQ'],
  [48, 'NL'],
  [49, 'LV'],
  [50, 'AT'],
  [51, 'BY'],
  [52, 'TH'],
  [53, 'SA'],
  [54, 'MX'],
  [55, 'TW'],
  [56, 'ES'],
  [58, 'DZ'],
  [59, 'SI'],
  [60, 'BD'],
  [61, 'SN'],
  [62, 'TR'],
  [63, 'CZ'],
  [64, 'LK'],
  [65, 'PE'],
  [66, 'PK'],
  [67, 'NZ'],
  [68, 'GN'],
  [69, 'ML'],
  [70, 'VE'],
  [71, 'ET'],
  [72, 'MN'],
  [73, 'BR'],
  [74, 'AF'],
  [75, 'UG'],
  [76, 'AO'],
  [77, 'CY'],
  [78, 'FR'],
  [79, 'PG'],
  [80, 'MZ'],
  [81, 'NP'],
  [82, 'BE'],
  [83, 'BG'],
  [84, 'HU'],
  [85, 'MD'],
  [86, 'IT'],
  [87, 'PY'],
  [88, 'HN'],
  [89, 'TN'],
  [90, 'NI'],
  [92, 'BO'],
  [93, 'CR'],
  [94, 'GT'],
  [95, 'AE'],
  [96, 'ZW'],
  [97, 'PR'],
  [99, 'TG'],
  [100, 'KW'],
  [101, 'SV'],
  [102, 'LY'],
  [103, 'JM'],
  [104, 'TT'],
  [105, 'EC'],
  [107, 'OM'],
  [108, 'BA'],
  [109, 'DO'],
  [111, 'QA'],
  [112, 'PA'],
  [114, 'MR'],
  [115, 'SL'],
  [116, 'JO'],
  [117, 'PT'],
  [128, 'GE'],
  [129, 'GR'],
  [141, 'SK'],
  [143, 'TJ'],
  [145, 'BH'],
  [148, 'AM'],
  [151, 'CL'],
  [156, 'UY'],
  [163, 'FI'],
  [165, 'LU'],
  [172, 'DK'],
  [173, 'CH'],
  [174, 'NO'],
  [175, 'AU'],
  [182, 'JP'],
  [187, 'US'],
  [190, 'KR'],
];

export const SMS_ACTIVATE_COUNTRIES: ReadonlyArray<{ id: number; iso: string }> = KNOWN.map(([id, iso]) => ({
  id,
  iso,
}));

const idOfIso = new Map(KNOWN.map(([id, iso]) => [iso, id]));
const isoOfId = new Map(KNOWN.map(([id, iso]) => [id, iso]));

/**
 * Countries SMS-Activate has no id for get one from their alpha-2 letters, 1000 +
 * (first − 'A') × 26 + (second − 'A'), so 1000–1675: stable, never one of its own ids, and
 * readable back without a table of ISO numeric codes.
 */
const FALLBACK_BASE = 1000;
const A = 'A'.charCodeAt(0);

function isIso(s: string): boolean {
  return /^[A-Z]{2}$/.test(s) && isSupportedCountry(s);
}

/** The SMS-Activate id of a country (ISO 3166-1 alpha-2); throws on a string that is no country code. */
export function smsActivateId(iso: string): number {
  const code = String(iso).trim().toUpperCase();
  const known = idOfIso.get(code);
  if (known !== undefined) return known;
  if (!isIso(code)) throw new RangeError(`not a country code: ${JSON.stringify(iso)}`);
  return FALLBACK_BASE + (code.charCodeAt(0) - A) * 26 + (code.charCodeAt(1) - A);
}

/** The country (ISO 3166-1 alpha-2) of an SMS-Activate id, or null when it names none. */
export function isoOfSmsActivateId(id: number): string | null {
  if (!Number.isInteger(id)) return null;
  const known = isoOfId.get(id);
  if (known !== undefined) return known;
  const n = id - FALLBACK_BASE;
  if (n < 0 || n >= 26 * 26) return null;
  const code = String.fromCharCode(A + Math.floor(n / 26), A + (n % 26));
  // A country with an id of its own is only ever that id.
  return isIso(code) && !idOfIso.has(code) ? code : null;
}

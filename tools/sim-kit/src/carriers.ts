// Real carrier profiles, so simulated SIMs can be of several countries and operators: IMSIs on the
// carrier's MCC/MNC, ICCIDs on its country code, numbers in its mobile ranges.
import { luhnDigit } from './luhn.ts';

export interface CarrierProfile {
  /** 'us-tmobile', 'de-vodafone', ... */
  id: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  mcc: string;
  /** 2 or 3 digits, as the network broadcasts it. */
  mnc: string;
  /** The operator name the network broadcasts. */
  name: string;
  /** E.164 country calling code, without '+'. */
  callingCode: string;
  /** A mobile number of this carrier without the calling code (no trunk '0'). */
  nationalNumber(random: () => number): string;
}

const digits = (random: () => number, n: number) =>
  Array.from({ length: n }, () => Math.floor(random() * 10)).join('');

const oneOf = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;

/** A national number: one of the carrier's ranges, then random digits up to `length`. */
function ranges(prefixes: readonly string[], length: number) {
  return (random: () => number) => {
    const prefix = oneOf(random, prefixes);
    return prefix + digits(random, length - prefix.length);
  };
}

// Real area codes: libphonenumber rejects NANP numbers on unassigned ones.
const US_AREA_CODES = ['202', '206', '212', '213', '305', '312', '404', '415', '503', '617', '702', '713'];

export const CARRIERS: readonly CarrierProfile[] = [
  {
    id: 'us-tmobile',
    country: 'US',
    mcc: '310',
    mnc: '260',
    name: 'T-Mobile',
    callingCode: '1',
    // NPA-NXX-XXXX: the exchange starts with 2–9 too.
    nationalNumber: (random) =>
      `${oneOf(random, US_AREA_CODES)}${2 + Math.floor(random() * 8)}${digits(random, 6)}`,
  },
  {
    id: 'de-vodafone',
    country: 'DE',
    mcc: '262',
    mnc: '02',
    name: 'Vodafone',
    callingCode: '49',
    nationalNumber: (random) =>
      deMobile(random, ['1520', '1522', '1523', '1525', '162', '172', '173', '174']),
  },
  {
    id: 'de-telekom',
    country: 'DE',
    mcc: '262',
    mnc: '01',
    name: 'Telekom',
    callingCode: '49',
    nationalNumber: (random) =>
      deMobile(random, ['1511', '1512', '1514', '1515', '160', '170', '171', '175']),
  },
  {
    id: 'gb-ee',
    country: 'GB',
    mcc: '234',
    mnc: '30',
    name: 'EE',
    callingCode: '44',
    nationalNumber: ranges(['7400', '7401', '7402', '7903', '7904', '7956', '7957', '7973', '7974'], 10),
  },
  {
    id: 'vn-viettel',
    country: 'VN',
    mcc: '452',
    mnc: '04',
    name: 'Viettel',
    callingCode: '84',
    nationalNumber: ranges(['86', '96', '97', '98', '32', '33', '34', '35', '36', '37', '38', '39'], 9),
  },
];

/** German mobile numbers: 015x blocks have 11 digits, 016x/017x ones 10. */
function deMobile(random: () => number, prefixes: readonly string[]): string {
  const prefix = oneOf(random, prefixes);
  return prefix + digits(random, (prefix.startsWith('15') ? 11 : 10) - prefix.length);
}

export const DEFAULT_CARRIER = 'us-tmobile';

/** The profile of an id; throws naming the known ids, so a typo in a CLI flag is caught. */
export function carrierProfile(id: string): CarrierProfile {
  const p = CARRIERS.find((c) => c.id === id);
  if (!p) throw new Error(`unknown carrier "${id}" (known: ${CARRIERS.map((c) => c.id).join(', ')})`);
  return p;
}

/** 15-digit IMSI: MCC, MNC, then the subscriber's MSIN. */
export function imsiFor(p: CarrierProfile, random: () => number): string {
  const head = p.mcc + p.mnc;
  return head + digits(random, 15 - head.length);
}

/**
 * 19-digit ICCID: 89 (telecom), the calling code (one digit padded to two, as US cards read 8901),
 * the MNC as issuer, account digits, Luhn digit.
 */
export function iccidFor(p: CarrierProfile, random: () => number): string {
  const head = `89${p.callingCode.padStart(2, '0')}${p.mnc}`;
  const body = head + digits(random, 18 - head.length);
  return body + luhnDigit(body);
}

/** An international number of the carrier, digits only (no '+'). */
export function numberFor(p: CarrierProfile, random: () => number): string {
  return p.callingCode + p.nationalNumber(random);
}

/** The operator as devices report it: "26202 Vodafone". */
export function oprText(p: CarrierProfile): string {
  return `${p.mcc}${p.mnc} ${p.name}`;
}

// Deterministic identities for simulated devices and SIMs.
//
// Every SIM a device ever creates gets a serial. Numbers, ICCIDs and IMSIs are affine maps
// (a·x + b mod m, with gcd(a, m) = 1, so bijective) of x = seed·SERIALS + serial. Devices in one
// fleet use consecutive seeds, so within the ranges below they never share a number or an ICCID.

import {
  type CarrierProfile,
  DEFAULT_CARRIER,
  iccidFor,
  imsiFor,
  luhnDigit,
  numberFor,
  seededRandom,
} from '@simdock/sim-kit';

const SERIALS = 4096n;

/** Largest default seed that keeps every id family collision-free (IMSI has the smallest range). */
export const MAX_SAFE_SEED = 200_000;

function affine(x: bigint, a: bigint, b: bigint, m: bigint): bigint {
  return (((a * x + b) % m) + m) % m;
}

function simKey(seed: number, serial: number): bigint {
  return BigInt(seed) * SERIALS + (BigInt(serial) % SERIALS);
}

/** NANP-looking MSISDN: '1' + 10 digits, the first of which is 2–9. */
export function simNumber(seed: number, serial: number): string {
  return `1${2_000_000_000n + affine(simKey(seed, serial), 7_919_377n, 1_234_567n, 8_000_000_000n)}`;
}

/** 19-digit ICCID: 89 (telecom) 01 (US) 260 (issuer), 11-digit account, Luhn digit. */
export function iccid(seed: number, serial: number): string {
  const body = `8901260${String(affine(simKey(seed, serial), 104_729n, 12_345n, 100_000_000_000n)).padStart(11, '0')}`;
  return body + luhnDigit(body);
}

/** 15-digit IMSI on MCC/MNC 310/260. */
export function imsi(seed: number, serial: number): string {
  return `310260${String(affine(simKey(seed, serial), 15_485_863n, 777n, 1_000_000_000n)).padStart(9, '0')}`;
}

/** One new SIM of a carrier: its number (the truth), ICCID and IMSI. */
export interface CarrierSim {
  msisdn: string;
  iccid: string;
  imsi: string;
}

/**
 * T-Mobile US SIMs keep the affine ids above (collision-free within a fleet, and what existing
 * tests expect); other carriers draw from a stream seeded by (seed, serial), so a seed still gives
 * the same SIMs, and their number spaces are large enough that a fleet's SIMs do not meet.
 */
export function carrierSim(profile: CarrierProfile, seed: number, serial: number): CarrierSim {
  if (profile.id === DEFAULT_CARRIER)
    return { msisdn: simNumber(seed, serial), iccid: iccid(seed, serial), imsi: imsi(seed, serial) };
  const random = seededRandom(Number(simKey(seed, serial) % 0x1_0000_0000n) ^ 0x5bd1e995);
  return {
    imsi: imsiFor(profile, random),
    iccid: iccidFor(profile, random),
    msisdn: numberFor(profile, random),
  };
}

/** 15-digit IMEI of one slot's module (a real TAC, a 6-digit serial, Luhn digit). */
export function imei(seed: number, slotIndex: number): string {
  const serial = affine(BigInt(seed) * 2048n + BigInt(slotIndex), 7_927n, 4_242n, 1_000_000n);
  const body = `86203204${String(serial).padStart(6, '0')}`;
  return body + luhnDigit(body);
}

/** Ejoin OUI 00-30-f1 plus three bytes that differ for every seed below 2^24. */
export function macFor(seed: number): string {
  const v = affine(BigInt(seed), 2_654_435_761n, 0x5a17n, 0x1000000n);
  const hex = v.toString(16).padStart(6, '0');
  return `00-30-f1-${hex.slice(0, 2)}-${hex.slice(2, 4)}-${hex.slice(4, 6)}`;
}

/** Normalise any MAC spelling ('00:30:F1:..', '0030f1...') to the device's dashed lower-case form. */
export function normaliseMac(mac: string): string {
  const hex = mac.toLowerCase().replace(/[^0-9a-f]/g, '');
  if (hex.length !== 12) throw new Error(`invalid MAC: ${mac}`);
  return hex.match(/../g)!.join('-');
}

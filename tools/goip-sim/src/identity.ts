// Seeded SIM identities: a seed gives the same numbers, IMSIs, ICCIDs and IMEIs in every run.

import {
  type CarrierProfile,
  carrierProfile,
  DEFAULT_CARRIER,
  iccidFor,
  imsiFor,
  luhnDigit,
  numberFor,
} from '@simdock/sim-kit';
import type { SimSpec } from './options.ts';

const digits = (random: () => number, n: number) =>
  Array.from({ length: n }, () => Math.floor(random() * 10)).join('');

/** Number, IMSI and ICCID of a new SIM of the carrier. */
function carrierIds(profile: CarrierProfile, random: () => number) {
  if (profile.id === DEFAULT_CARRIER) {
    // The draws T-Mobile US SIMs always had, so an existing seed keeps its SIMs and send timings.
    const number = `1${2 + Math.floor(random() * 8)}${digits(random, 9)}`;
    const iccidBody = `8901260${digits(random, 11)}`;
    return { number, iccid: iccidBody + luhnDigit(iccidBody), imsi: `310260${digits(random, 9)}` };
  }
  const number = numberFor(profile, random);
  return { number, iccid: iccidFor(profile, random), imsi: imsiFor(profile, random) };
}

/** A logged-in SIM of the carrier (default T-Mobile US) with a balance and an own-number USSD code. */
export function simIdentity(
  seed: number,
  line: number,
  random: () => number,
  profile: CarrierProfile = carrierProfile(DEFAULT_CARRIER),
): SimSpec {
  const { number, iccid, imsi } = carrierIds(profile, random);
  // The IMEI's serial follows the seed and the line, so the box's modules never share one.
  const imeiBody = `86203204${String((seed * 32 + line) % 1_000_000).padStart(6, '0')}`;
  return {
    inserted: true,
    loggedIn: true,
    number,
    imsi,
    iccid,
    imei: imeiBody + luhnDigit(imeiBody),
    carrier: profile.name,
    signal: 12 + Math.floor(random() * 19),
    ussd: defaultUssd(number),
  };
}

/** A balance check and an own-number code, as most carriers have. */
export function defaultUssd(number: string): Record<string, string> {
  return { '*100#': 'Your balance is 12.50 USD', '*#100#': `Your number is +${number}` };
}

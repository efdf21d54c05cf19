// Seeded SIM identities: a seed gives the same numbers, IMSIs, ICCIDs and IMEIs in every run.

import { luhnDigit } from '@simdock/sim-kit';
import type { SimSpec } from './options.ts';

const digits = (random: () => number, n: number) =>
  Array.from({ length: n }, () => Math.floor(random() * 10)).join('');

/** A logged-in SIM on T-Mobile US (MCC/MNC 310/260) with a balance and an own-number USSD code. */
export function simIdentity(seed: number, line: number, random: () => number): SimSpec {
  const number = `1${2 + Math.floor(random() * 8)}${digits(random, 9)}`;
  const iccidBody = `8901260${digits(random, 11)}`;
  // The IMEI's serial follows the seed and the line, so the box's modules never share one.
  const imeiBody = `86203204${String((seed * 32 + line) % 1_000_000).padStart(6, '0')}`;
  return {
    inserted: true,
    loggedIn: true,
    number,
    imsi: `310260${digits(random, 9)}`,
    iccid: iccidBody + luhnDigit(iccidBody),
    imei: imeiBody + luhnDigit(imeiBody),
    carrier: 'T-Mobile',
    signal: 12 + Math.floor(random() * 19),
    ussd: defaultUssd(number),
  };
}

/** A balance check and an own-number code, as most carriers have. */
export function defaultUssd(number: string): Record<string, string> {
  return { '*100#': 'Your balance is 12.50 USD', '*#100#': `Your number is +${number}` };
}

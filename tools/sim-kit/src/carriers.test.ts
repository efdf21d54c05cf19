import { describe, expect, it } from 'vitest';
import { CARRIERS, carrierProfile, iccidFor, imsiFor, numberFor, oprText } from './carriers.ts';
import { luhnDigit } from './luhn.ts';
import { seededRandom } from './random.ts';

// The national (significant) number lengths of each country's mobile numbers.
const NATIONAL_LENGTHS: Record<string, number[]> = { US: [10], DE: [10, 11], GB: [10], VN: [9] };
const MOBILE_START: Record<string, RegExp> = {
  US: /^[2-9]\d\d[2-9]/,
  DE: /^1[5-7]/,
  GB: /^7/,
  VN: /^[39]|^8/,
};

describe('carrier profiles', () => {
  it('have the required carriers, each a country with its calling code', () => {
    expect(CARRIERS.map((c) => `${c.id} ${c.country} ${c.mcc}/${c.mnc} +${c.callingCode}`)).toEqual(
      expect.arrayContaining([
        'us-tmobile US 310/260 +1',
        'de-vodafone DE 262/02 +49',
        'de-telekom DE 262/01 +49',
        'gb-ee GB 234/30 +44',
        'vn-viettel VN 452/04 +84',
      ]),
    );
    expect(oprText(carrierProfile('de-vodafone'))).toBe('26202 Vodafone');
    expect(() => carrierProfile('xx-nope')).toThrow(/unknown carrier "xx-nope".*us-tmobile/);
  });

  for (const c of CARRIERS) {
    it(`${c.id}: IMSI on its MCC/MNC, ICCID on its country with a Luhn digit, a mobile number`, () => {
      const random = seededRandom(42);
      for (let i = 0; i < 200; i++) {
        const imsi = imsiFor(c, random);
        expect(imsi).toMatch(/^\d{15}$/);
        expect(imsi.startsWith(c.mcc + c.mnc)).toBe(true);

        const iccid = iccidFor(c, random);
        expect(iccid).toMatch(/^\d{19,20}$/);
        expect(iccid.startsWith(`89${c.callingCode.padStart(2, '0')}`)).toBe(true);
        expect(luhnDigit(iccid.slice(0, -1))).toBe(iccid.at(-1));

        const number = numberFor(c, random);
        expect(number.startsWith(c.callingCode)).toBe(true);
        const national = number.slice(c.callingCode.length);
        expect(NATIONAL_LENGTHS[c.country]).toContain(national.length);
        expect(national).toMatch(MOBILE_START[c.country]!);
      }
    });
  }

  it('gives the same identities for the same seed', () => {
    const draw = (seed: number) => {
      const r = seededRandom(seed);
      const p = carrierProfile('gb-ee');
      return [imsiFor(p, r), iccidFor(p, r), numberFor(p, r)];
    };
    expect(draw(9)).toEqual(draw(9));
    expect(draw(9)).not.toEqual(draw(10));
  });
});

import { describe, expect, it } from 'vitest';
import { countryOfNumber, effectiveOrigin, isCountryCode, type SimFacts, simOrigin } from './origin.ts';

const facts = (f: Partial<SimFacts>): SimFacts => ({
  imsi: null,
  operator: null,
  iccid: null,
  number: null,
  ...f,
});

describe('simOrigin from the IMSI', () => {
  it('reads a 2-digit MNC (262 02: Vodafone Germany)', () => {
    expect(simOrigin(facts({ imsi: '262021234567890' }))).toEqual({
      country: 'DE',
      operator: 'Vodafone',
      source: 'imsi',
    });
  });

  it('reads a 3-digit MNC before a 2-digit one (310 260: T-Mobile US; 405 854: Jio India)', () => {
    expect(simOrigin(facts({ imsi: '310260123456789' }))).toEqual({
      country: 'US',
      operator: 'T-Mobile',
      source: 'imsi',
    });
    expect(simOrigin(facts({ imsi: '405854123456789' }))).toEqual({
      country: 'IN',
      operator: 'Jio',
      source: 'imsi',
    });
  });

  it('gives the country of a known MCC whose MNC is unknown, and the operator from the operator text', () => {
    expect(simOrigin(facts({ imsi: '262991234567890' }))).toEqual({
      country: 'DE',
      operator: null,
      source: 'imsi',
    });
    expect(simOrigin(facts({ imsi: '262991234567890', operator: 'Fonic' }))).toEqual({
      country: 'DE',
      operator: 'Fonic',
      source: 'imsi',
    });
  });

  it('takes the operator of a network without a country and looks further for the country', () => {
    // 901 is international (satellite, M2M): no country.
    expect(simOrigin(facts({ imsi: '901281234567890', number: '+4915112345678' }))).toEqual({
      country: 'DE',
      operator: 'Vodafone',
      source: 'number',
    });
  });
});

describe('simOrigin from the operator text', () => {
  it('reads "MCCMNC name" and a bare MCCMNC', () => {
    expect(simOrigin(facts({ operator: '26201 Telekom' }))).toEqual({
      country: 'DE',
      operator: 'Telekom',
      source: 'operator',
    });
    expect(simOrigin(facts({ operator: '310260' }))).toEqual({
      country: 'US',
      operator: 'T-Mobile',
      source: 'operator',
    });
  });

  it('takes a bare name as the operator only and the country from the ICCID', () => {
    expect(simOrigin(facts({ operator: 'T-Mobile', iccid: '8949226012345678901' }))).toEqual({
      country: 'DE',
      operator: 'T-Mobile',
      source: 'iccid',
    });
    expect(simOrigin(facts({ operator: 'T-Mobile' }))).toEqual({
      country: null,
      operator: 'T-Mobile',
      source: null,
    });
  });
});

describe('simOrigin from the ICCID', () => {
  const country = (iccid: string) => simOrigin(facts({ iccid })).country;

  it('reads the calling code after 89, the longest real one', () => {
    expect(country('8949226012345678901')).toBe('DE');
    expect(country('8944110012345678901')).toBe('GB');
    expect(country('8984040012345678901')).toBe('VN');
    expect(country('8935301123456789012')).toBe('IE'); // 353, not 35
    expect(country('8938510123456789012')).toBe('HR'); // 385, not 38
    expect(simOrigin(facts({ iccid: '8984040012345678901' })).source).toBe('iccid');
  });

  it('maps a shared calling code to its main country (1 → US, 7 → RU, 44 → GB)', () => {
    expect(country('8912345678901234567')).toBe('US');
    expect(country('8901260123456789012')).toBe('US'); // the code padded with a 0
    expect(country('8970123456789012345')).toBe('RU');
  });

  it('lets a number under the same calling code be more precise', () => {
    expect(simOrigin(facts({ iccid: '8912345678901234567', number: '+14165551234' }))).toEqual({
      country: 'CA',
      operator: null,
      source: 'number',
    });
    expect(simOrigin(facts({ iccid: '8970123456789012345', number: '+77011234567' })).country).toBe('KZ');
    // A number of another country does not override the ICCID.
    expect(simOrigin(facts({ iccid: '8949226012345678901', number: '+84912345678' }))).toEqual({
      country: 'DE',
      operator: null,
      source: 'iccid',
    });
  });

  it('gives nothing for a masked ICCID', () => {
    expect(simOrigin(facts({ iccid: '****1234' }))).toEqual({ country: null, operator: null, source: null });
    expect(simOrigin(facts({ iccid: '891' })).country).toBeNull();
  });
});

describe('simOrigin from the number', () => {
  it('reads an international number, with or without +', () => {
    expect(simOrigin(facts({ number: '+84912345678' }))).toEqual({
      country: 'VN',
      operator: null,
      source: 'number',
    });
    expect(simOrigin(facts({ number: '4915112345678' }))).toEqual({
      country: 'DE',
      operator: null,
      source: 'number',
    });
  });
});

describe('simOrigin precedence', () => {
  it('IMSI, then operator text, then ICCID, then number', () => {
    const all = facts({
      imsi: '262021234567890', // DE
      operator: '20801 Orange', // FR
      iccid: '8944110012345678901', // GB
      number: '+84912345678', // VN
    });
    expect(simOrigin(all)).toEqual({ country: 'DE', operator: 'Vodafone', source: 'imsi' });
    expect(simOrigin({ ...all, imsi: null })).toEqual({
      country: 'FR',
      operator: 'Orange',
      source: 'operator',
    });
    expect(simOrigin({ ...all, imsi: null, operator: null })).toEqual({
      country: 'GB',
      operator: null,
      source: 'iccid',
    });
    expect(simOrigin({ ...all, imsi: null, operator: null, iccid: null })).toEqual({
      country: 'VN',
      operator: null,
      source: 'number',
    });
  });

  it('takes the IMSI operator over the operator text', () => {
    expect(simOrigin(facts({ imsi: '262021234567890', operator: '26201 Telekom' })).operator).toBe(
      'Vodafone',
    );
  });
});

describe('simOrigin on garbage', () => {
  const none = { country: null, operator: null, source: null };

  it('returns nulls and never throws', () => {
    expect(simOrigin(facts({}))).toEqual(none);
    expect(simOrigin(facts({ imsi: 'garbage', operator: '!!', iccid: 'zz', number: 'abc' }))).toEqual(none);
    expect(simOrigin(facts({ imsi: '', operator: '   ', iccid: '', number: '' }))).toEqual(none);
    expect(simOrigin(facts({ imsi: '000001234567890', number: '+0000' }))).toEqual(none);
    expect(simOrigin(facts({ imsi: '2620212345678901234567', number: '12' }))).toEqual(none);
    // Wrong types from an untyped caller.
    const junk = { imsi: 262021234567890, operator: {}, iccid: [], number: undefined } as unknown as SimFacts;
    expect(simOrigin(junk)).toEqual(none);
    expect(simOrigin(null as unknown as SimFacts)).toEqual(none);
  });

  it('hands out a copy: a caller changing its result does not change the next one', () => {
    const first = simOrigin(facts({ imsi: '262021234567890' }));
    first.country = 'XX';
    expect(simOrigin(facts({ imsi: '262021234567890' })).country).toBe('DE');
  });
});

describe('countryOfNumber, isCountryCode', () => {
  it('reads numbers in international formats', () => {
    expect(countryOfNumber('+84 91 234 56 78')).toBe('VN');
    expect(countryOfNumber('0049 151 12345678')).toBe('DE');
    expect(countryOfNumber('+1 (416) 555-1234')).toBe('CA');
    expect(countryOfNumber('+447400123456')).toBe('GB');
    expect(countryOfNumber('+447911123456')).toBe('GG'); // 7911 is a Guernsey range
    expect(countryOfNumber('12')).toBeNull();
    expect(countryOfNumber('not a number')).toBeNull();
    expect(countryOfNumber('+80012345678')).toBeNull(); // international freephone: no country
  });

  it('counts a SIM under an admin correction, else what it tells, else the default country', () => {
    const facts = { imsi: '262021234567890', operator: null, iccid: null, number: null };
    const none = { countryOverride: null, operatorOverride: null };
    expect(effectiveOrigin({ ...facts, ...none }, 'US')).toEqual({
      country: 'DE',
      operator: 'Vodafone',
      source: 'imsi',
      corrected: false,
    });
    expect(effectiveOrigin({ ...facts, countryOverride: 'AT', operatorOverride: null }, 'US')).toEqual({
      country: 'AT',
      operator: 'Vodafone',
      source: 'admin',
      corrected: true,
    });
    // Only the operator corrected: the country is still the SIM's own.
    expect(effectiveOrigin({ ...facts, countryOverride: null, operatorOverride: 'Lyca' }, 'US')).toEqual({
      country: 'DE',
      operator: 'Lyca',
      source: 'imsi',
      corrected: true,
    });
    const silent = { imsi: null, operator: null, iccid: null, number: null, ...none };
    expect(effectiveOrigin(silent, 'VN')).toEqual({
      country: 'VN',
      operator: null,
      source: 'default',
      corrected: false,
    });
  });

  it('knows country codes', () => {
    expect(isCountryCode('DE')).toBe(true);
    expect(isCountryCode('de')).toBe(false);
    expect(isCountryCode('ZZ')).toBe(false);
    expect(isCountryCode('DEU')).toBe(false);
    expect(isCountryCode(49)).toBe(false);
  });
});

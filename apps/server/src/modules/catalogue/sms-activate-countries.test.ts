import { describe, expect, it } from 'vitest';
import { isoOfSmsActivateId, SMS_ACTIVATE_COUNTRIES, smsActivateId } from './sms-activate-countries.ts';

describe('SMS-Activate country ids', () => {
  it('uses its own ids', () => {
    expect(smsActivateId('RU')).toBe(0);
    expect(smsActivateId('VN')).toBe(10);
    expect(smsActivateId('GB')).toBe(16);
    expect(smsActivateId('DE')).toBe(43);
    expect(smsActivateId('US')).toBe(187);
    expect(smsActivateId('kr')).toBe(190);
    expect(isoOfSmsActivateId(0)).toBe('RU');
    expect(isoOfSmsActivateId(187)).toBe('US');
  });

  it('never maps a country to 12 (its virtual USA)', () => {
    expect(isoOfSmsActivateId(12)).toBeNull();
    expect(SMS_ACTIVATE_COUNTRIES.some((c) => c.id === 12)).toBe(false);
  });

  it('round-trips every listed country, each id and country once', () => {
    expect(SMS_ACTIVATE_COUNTRIES.length).toBe(128);
    expect(new Set(SMS_ACTIVATE_COUNTRIES.map((c) => c.id)).size).toBe(SMS_ACTIVATE_COUNTRIES.length);
    expect(new Set(SMS_ACTIVATE_COUNTRIES.map((c) => c.iso)).size).toBe(SMS_ACTIVATE_COUNTRIES.length);
    for (const { id, iso } of SMS_ACTIVATE_COUNTRIES) {
      expect(iso).toMatch(/^[A-Z]{2}$/);
      expect(smsActivateId(iso)).toBe(id);
      expect(isoOfSmsActivateId(id)).toBe(iso);
    }
  });

  it('gives other countries 1000 + their letters, and reads them back', () => {
    // FO (Faroe Islands): (F − A) × 26 + (O − A) = 5 × 26 + 14.
    expect(smsActivateId('FO')).toBe(1144);
    expect(isoOfSmsActivateId(1144)).toBe('FO');
    for (const iso of ['AD', 'IS', 'MT', 'XK', 'ZM']) {
      const id = smsActivateId(iso);
      expect(id).toBeGreaterThanOrEqual(1000);
      expect(isoOfSmsActivateId(id)).toBe(iso);
    }
  });

  it('reads no country from other ids', () => {
    // The letter id of a country that has an id of its own (DE), of no country (ZZ), and junk.
    expect(isoOfSmsActivateId(1000 + 3 * 26 + 4)).toBeNull();
    expect(isoOfSmsActivateId(1000 + 25 * 26 + 25)).toBeNull();
    for (const id of [-1, 57, 999, 1676, 5000, 1.5, Number.NaN]) expect(isoOfSmsActivateId(id)).toBeNull();
  });

  it('refuses what is no country code', () => {
    expect(() => smsActivateId('ZZ')).toThrow(RangeError);
    expect(() => smsActivateId('Germany')).toThrow(RangeError);
  });
});

import { describe, expect, it } from 'vitest';
import { countryOfNumber } from './phone-country.ts';
import {
  destinationPrices,
  disabledDestinations,
  type MessagePrices,
  messageCost,
  sendCostUnits,
  unitsText,
} from './pricing.ts';

const prices: MessagePrices = {
  smsPricePerSegment: '0.0075',
  mmsPrice: '0.0200',
  countries: [
    { country: 'DE', smsPricePerSegment: '0.0913', mmsPrice: null, enabled: true },
    { country: 'GB', smsPricePerSegment: null, mmsPrice: 0.1234, enabled: true },
    { country: 'RU', smsPricePerSegment: '0.5', mmsPrice: null, enabled: false },
  ],
};

describe('message prices by destination', () => {
  it('price a listed country at its own prices, null meaning the default', () => {
    expect(destinationPrices(prices, 'DE')).toEqual({
      enabled: true,
      smsPricePerSegment: '0.0913',
      mmsPrice: '0.0200',
    });
    expect(messageCost('Hi', prices, false, 'DE')).toBe('0.0913');
    expect(messageCost('x'.repeat(161), prices, false, 'DE')).toBe('0.1826');
    expect(messageCost('Hi', prices, false, 'GB')).toBe('0.0075');
    expect(messageCost('Hi', prices, true, 'GB')).toBe('0.1234');
    expect(messageCost('Hi', prices, true, 'DE')).toBe('0.0200');
  });

  it('price a country not listed, or a number with no country, at the defaults', () => {
    expect(destinationPrices(prices, 'FR')).toEqual({
      enabled: true,
      smsPricePerSegment: '0.0075',
      mmsPrice: '0.0200',
    });
    expect(destinationPrices(prices, null).enabled).toBe(true);
    expect(messageCost('Hi', prices, false, null)).toBe('0.0075');
    expect(messageCost('Hi', prices)).toBe('0.0075');
    // No countries at all: everything is enabled at the defaults.
    expect(destinationPrices({ smsPricePerSegment: 1, mmsPrice: 2 }, 'DE')).toEqual({
      enabled: true,
      smsPricePerSegment: 1,
      mmsPrice: 2,
    });
  });

  it('tell a disabled country, and the others when the operator refuses them', () => {
    expect(destinationPrices(prices, 'RU').enabled).toBe(false);
    const closed = { ...prices, otherCountriesEnabled: false };
    expect(destinationPrices(closed, 'FR').enabled).toBe(false);
    expect(destinationPrices(closed, null).enabled).toBe(false);
    expect(destinationPrices(closed, 'DE').enabled).toBe(true);
  });

  it('sum a send by each recipient’s country, exact to the ten-thousandth', () => {
    const to = ['4915112345678', '447400123456', '12025550123', '4915112345679'];
    const countries = to.map(countryOfNumber);
    expect(countries).toEqual(['DE', 'GB', 'US', 'DE']);
    const bodies = ['Hi', 'Hi', 'Hi', 'x'.repeat(200)];
    // DE 0.0913 + GB 0.0075 + US 0.0075 + DE 2 × 0.0913
    expect(unitsText(sendCostUnits(bodies, prices, countries))).toBe('0.2889');
    const many = Array.from({ length: 10_001 }, () => 'Hi');
    expect(unitsText(sendCostUnits(many, prices, Array(10_001).fill('DE')))).toBe('913.0913');
    // Without countries: the defaults, as before.
    expect(unitsText(sendCostUnits(bodies, prices))).toBe('0.0375');
  });
});

describe('countryOfNumber', () => {
  it('reads numbers in international formats, and gives null for the rest', () => {
    expect(countryOfNumber('+84 91 234 56 78')).toBe('VN');
    expect(countryOfNumber('0049 151 12345678')).toBe('DE');
    expect(countryOfNumber('+1 (416) 555-1234')).toBe('CA');
    expect(countryOfNumber('+447911123456')).toBe('GG');
    expect(countryOfNumber('12')).toBeNull();
    expect(countryOfNumber('not a number')).toBeNull();
    expect(countryOfNumber('+80012345678')).toBeNull();
    expect(countryOfNumber(undefined as unknown as string)).toBeNull();
  });
});

describe('disabledDestinations', () => {
  it('count the recipients of each refused country, most first', () => {
    const closed = { ...prices, otherCountriesEnabled: false };
    expect(disabledDestinations(closed, ['RU', 'DE', 'FR', 'RU', null, 'GB'])).toEqual([
      { country: 'RU', count: 2 },
      { country: 'FR', count: 1 },
      { country: null, count: 1 },
    ]);
    expect(disabledDestinations(prices, ['DE', 'FR', null])).toEqual([]);
  });
});

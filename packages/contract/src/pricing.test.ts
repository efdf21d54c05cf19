import { describe, expect, it } from 'vitest';
import { amountText, messageCost, priceUnits, sendCostUnits, unitsText } from './pricing.ts';

const prices = { smsPricePerSegment: '0.0075', mmsPrice: 0.02 };

describe('message prices', () => {
  it('price an SMS by its segments: GSM-7 160 / 153 per part, UCS-2 70 / 67', () => {
    expect(messageCost('Hi', prices)).toBe('0.0075');
    expect(messageCost('x'.repeat(160), prices)).toBe('0.0075');
    expect(messageCost('x'.repeat(161), prices)).toBe('0.0150');
    expect(messageCost('Ж'.repeat(70), prices)).toBe('0.0075');
    expect(messageCost('Ж'.repeat(71), prices)).toBe('0.0150');
    expect(messageCost('Ж'.repeat(135), prices)).toBe('0.0225');
  });

  it('price an MMS at its price, whatever its text', () => {
    expect(messageCost('x'.repeat(500), prices, true)).toBe('0.0200');
  });

  it('sum a send exactly (no float drift over many recipients)', () => {
    // 0.1 + 0.2 style drift would show after a few thousand additions in floats.
    const bodies = Array.from({ length: 10_000 }, (_, i) => (i % 2 ? 'Hi' : 'x'.repeat(200)));
    expect(unitsText(sendCostUnits(bodies, prices))).toBe('112.5000');
    expect(unitsText(sendCostUnits([], prices))).toBe('0.0000');
  });

  it('read prices on their decimal text and refuse what is not one', () => {
    expect(priceUnits(0.0075)).toBe(75);
    expect(priceUnits('12.5')).toBe(125_000);
    expect(() => priceUnits(0.00001)).toThrow(RangeError);
    expect(() => priceUnits(-1)).toThrow(RangeError);
  });

  it('show amounts with at least two decimals, the others only when they are there', () => {
    expect(amountText('12.5000')).toBe('12.50');
    expect(amountText('0.0225')).toBe('0.0225');
    expect(amountText('-1.5000')).toBe('-1.50');
    expect(amountText('7')).toBe('7.00');
    expect(amountText('5.000')).toBe('5.00');
    expect(unitsText(-225)).toBe('-0.0225');
  });
});

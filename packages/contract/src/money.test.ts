import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDecimalText, isMoney, moneyText } from './money.ts';
import { topupAmountProblem } from './payments.ts';
import { assertProperty } from './property-seeds.ts';
import { validateService } from './rules.ts';
import { parseBalance } from './user-admin.ts';

/** Exact text of `cents` hundredths, built from integers only ("0.55", "1000.00"). */
const centsText = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

describe('moneyText', () => {
  it('accepts every amount from 0.00 to 1,000.00, as a JSON number and as text, exactly', () => {
    for (let cents = 0; cents <= 100_000; cents++) {
      const exact = centsText(cents);
      // The number a JSON parser makes of what the sender wrote (0.55 → 0.55000000000000004...).
      const asNumber = JSON.parse(exact) as number;
      if (moneyText(asNumber) !== exact || moneyText(exact) !== exact) {
        expect({ cents, number: moneyText(asNumber), text: moneyText(exact) }).toEqual({
          cents,
          number: exact,
          text: exact,
        });
      }
    }
  });

  // A million amounts: several seconds on a loaded 2-core machine, so a timeout of its own.
  it('refuses every amount with a third decimal from 0.000 to 1,000.000', () => {
    for (let mills = 0; mills <= 1_000_000; mills++) {
      if (mills % 10 === 0) continue;
      const text = `${Math.floor(mills / 1000)}.${String(mills % 1000).padStart(3, '0')}`;
      if (moneyText(JSON.parse(text)) !== undefined || moneyText(text) !== undefined) {
        expect({ text, accepted: moneyText(text) ?? moneyText(JSON.parse(text)) }).toBeUndefined();
      }
    }
  }, 60_000);

  it('the prices operators use are valid service prices', () => {
    for (const price of [0.55, 1.15, 2.3, 4.35, 19.99, 0.29, 0.45, 0.01, 999_999.99]) {
      expect(validateService({ name: 'X', code: 'x', price, stock: 1, rentTimeMinutes: 20 })).toEqual({});
    }
    expect(validateService({ name: 'X', code: 'x', price: 0.555, stock: 1, rentTimeMinutes: 20 }).price).toBe(
      'priceDecimals',
    );
  });

  it('normalises text to the given number of places and keeps four-decimal prices exact', async () => {
    expect(moneyText('12.5')).toBe('12.50');
    expect(moneyText(' 7 ')).toBe('7.00');
    expect(moneyText('1.000')).toBe('1.00');
    expect(moneyText('0007.10')).toBe('7.10');
    expect(moneyText(0.0075, 4)).toBe('0.0075');
    expect(moneyText('0.00751', 4)).toBeUndefined();
    await assertProperty(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (units) => {
        const exact = `${Math.floor(units / 10_000)}.${String(units % 10_000).padStart(4, '0')}`;
        return moneyText(JSON.parse(exact), 4) === exact && moneyText(exact, 4) === exact;
      }),
    );
  });

  it('refuses negatives, exponents, junk, non-finite numbers and more than 12 integer digits', () => {
    for (const bad of [
      -1,
      '-0.50',
      '1e3',
      1e-7,
      '0x10',
      '',
      ' ',
      '.5',
      '5.',
      '1,5',
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '1234567890123',
      null,
      undefined,
      true,
      [1],
    ]) {
      expect(isMoney(bad), String(bad)).toBe(false);
    }
    expect(moneyText('999999999999.99')).toBe('999999999999.99');
  });

  it('is the one rule behind balances, top-ups and prices', async () => {
    await assertProperty(
      fc.property(fc.integer({ min: 1000, max: 1_000_000 }), (cents) => {
        const n = JSON.parse(centsText(cents)) as number;
        return parseBalance(n) === centsText(cents) && topupAmountProblem(n) === null;
      }),
    );
    expect(parseBalance(0.1 + 0.2)).toBeUndefined();
    expect(topupAmountProblem(10.005)).toBe('decimals');
  });
});

describe('isDecimalText', () => {
  it('accepts plain decimal text and refuses every other form', () => {
    for (const ok of ['0', '10', '0.048', '10.50', '123456789012345', '0.000000000000000001'])
      expect([ok, isDecimalText(ok)]).toEqual([ok, true]);
    for (const bad of [
      '',
      '1e3',
      '1E3',
      '1.5e-7',
      '-1',
      '+1',
      ' 1',
      '1 ',
      '.5',
      '5.',
      '1,000',
      '1_000',
      '0x10',
      'Infinity',
      'NaN',
      '١٠',
      '1234567890123456',
      '0.0000000000000000001',
    ])
      expect([bad, isDecimalText(bad)]).toEqual([bad, false]);
  });
});

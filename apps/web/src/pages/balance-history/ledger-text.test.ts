import { LEDGER_KINDS } from '@simdock/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadLanguage, translateIn } from '../../i18n/index.tsx';
import { amountTone, ledgerKindKey, referenceText } from './ledger-text.ts';

const en = (key: Parameters<typeof translateIn>[1], params?: Record<string, string | number>) =>
  translateIn('en', key, params);
const vi = (key: Parameters<typeof translateIn>[1], params?: Record<string, string | number>) =>
  translateIn('vi', key, params);

beforeAll(() => loadLanguage('vi'));

describe('ledger kinds in plain words', () => {
  it('names every kind the ledger records', () => {
    expect(Object.fromEntries(LEDGER_KINDS.map((k) => [k, en(ledgerKindKey(k))]))).toEqual({
      topup: 'Top-up',
      order_charge: 'Rental',
      refund: 'Refund',
      admin_adjustment: 'Adjustment by an administrator',
      demo_credit: 'Starting balance',
      message_charge: 'Messages',
      message_refund: 'Messages refund',
    });
  });
  it('in Vietnamese too, never the key itself', () => {
    for (const k of LEDGER_KINDS) {
      const text = vi(ledgerKindKey(k));
      expect(text).not.toMatch(/^balance\./);
      expect(text).not.toBe(en(ledgerKindKey(k)));
    }
    expect(vi(ledgerKindKey('message_refund'))).toBe('Hoàn tiền tin nhắn');
  });
});

describe('references in words', () => {
  it('says the order, the campaign and the messages', () => {
    expect(referenceText({ type: 'order', orderId: '42' }, en)).toBe('Order #42');
    expect(referenceText({ type: 'campaign', campaignId: '7', messages: null }, en)).toBe('Campaign #7');
    expect(
      referenceText({ type: 'campaign', campaignId: '7', messages: { first: '101', last: '140' } }, en),
    ).toBe('Campaign #7, messages #101–#140');
    expect(
      referenceText({ type: 'campaign', campaignId: '7', messages: { first: '101', last: '101' } }, en),
    ).toBe('Campaign #7, message #101');
    expect(referenceText({ type: 'messages', messages: { first: '9', last: '9' } }, en)).toBe('Message #9');
    expect(referenceText({ type: 'messages', messages: { first: '3', last: '5' } }, en)).toBe(
      'Messages #3–#5',
    );
    expect(referenceText({ type: 'order', orderId: '42' }, vi)).toBe('Đơn #42');
  });
  it('says nothing without a reference', () => {
    expect(referenceText(null, en)).toBe('');
  });
});

describe('amount tone', () => {
  it('credits green, charges red, zero neither', () => {
    expect(amountTone(10)).toBe('credit');
    expect(amountTone(-0.0225)).toBe('debit');
    expect(amountTone(0)).toBe('none');
  });
});

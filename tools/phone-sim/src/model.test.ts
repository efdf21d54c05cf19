import { describe, expect, it } from 'vitest';
import { aggregate, maskSim, partsCount, phoneTime, sign } from './model.ts';

describe('SMSGate rules', () => {
  it('masks all but the last 4 characters, and short values entirely', () => {
    expect(maskSim('+84901234567')).toBe('********4567');
    expect(maskSim('Viettel')).toBe('***ttel');
    expect(maskSim('Mobi')).toBe('****');
    expect(maskSim('ab')).toBe('****');
    expect(maskSim(null)).toBeNull();
  });

  it('aggregates recipient states as the doc orders them', () => {
    expect(aggregate(['Delivered', 'Pending'])).toBe('Pending');
    expect(aggregate(['Processed', 'Failed'])).toBe('Processed');
    expect(aggregate(['Delivered', 'Delivered'])).toBe('Delivered');
    expect(aggregate(['Failed', 'Failed'])).toBe('Failed');
    expect(aggregate(['Delivered', 'Failed'])).toBe('Sent');
    expect(aggregate(['Sent', 'Delivered'])).toBe('Sent');
  });

  it('counts SMS parts: 160/153 GSM-7, 70/67 UCS-2', () => {
    expect(partsCount('a'.repeat(160))).toBe(1);
    expect(partsCount('a'.repeat(161))).toBe(2);
    expect(partsCount('€'.repeat(80))).toBe(1);
    expect(partsCount('ệ'.repeat(70))).toBe(1);
    expect(partsCount('ệ'.repeat(71))).toBe(2);
  });

  it('writes times with milliseconds and the phone offset', () => {
    const ms = Date.UTC(2026, 4, 1, 3, 0, 0, 5);
    expect(phoneTime(ms, 420)).toBe('2026-05-01T10:00:00.005+07:00');
    expect(phoneTime(ms, -90)).toBe('2026-05-01T01:30:00.005-01:30');
  });

  it('signs body followed directly by the timestamp', () => {
    expect(sign('key', '{"a":1}', '1700000000')).toBe(sign('key', '{"a":1}1700', '000000'));
    expect(sign('key', '{"a":1}', '1700000000')).not.toBe(sign('key', '{"a":1}', '1700000001'));
  });
});

import { DEVICE_KINDS, SIM_STATE_TEXT } from '@simdock/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadLanguage, translateIn } from '../../i18n/index.tsx';
import { lockKindText, lockLeftText, lockReasonText, simStateName, simText } from './sim-text.ts';

beforeAll(() => loadLanguage('vi'));
const vi = (key: Parameters<typeof translateIn>[1], params?: Parameters<typeof translateIn>[2]) =>
  translateIn('vi', key, params);
const en = (key: Parameters<typeof translateIn>[1], params?: Parameters<typeof translateIn>[2]) =>
  translateIn('en', key, params);

describe('SIM texts in the user language', () => {
  it('names SIM states ("Registered") in Vietnamese too', () => {
    expect(simStateName(en, 'Registered')).toBe('Registered');
    expect(simStateName(vi, 'Registered')).toBe('Đã đăng ký mạng');
    expect(simStateName(vi, 'State 99')).toBe('State 99');
  });

  it("knows every platform state's own name, so a device without words is translated too", () => {
    for (const text of Object.values(SIM_STATE_TEXT)) expect(simStateName(vi, text)).not.toBe(text);
  });

  it("translates the server's lock reasons and keeps an administrator's own words", () => {
    expect(lockReasonText(vi, '5 failed sends in a row')).toBe('5 lần gửi lỗi liên tiếp');
    expect(lockReasonText(vi, 'Device reports: Registration failed')).toBe(
      'Thiết bị báo: Đăng ký mạng thất bại',
    );
    expect(lockReasonText(en, '3 failed sends in a row (recovered; cooling down)')).toBe(
      '3 failed sends in a row (recovered; cooling down)',
    );
    expect(lockReasonText(vi, 'Carrier complaint')).toBe('Carrier complaint');
  });

  it("names a SIM by an Ejoin box's port, a phone's slot or a GoIP box's line", () => {
    expect(simText(en, 'ejoin', '1.01', 'setNumber')).toBe('Set number for port 1.01');
    expect(simText(en, 'smsgate', '2', 'setNumber')).toBe('Set number for SIM 2');
    expect(simText(en, 'goip', '3', 'setNumber')).toBe('Set number for line 3');
    expect(simText(en, 'goip', '1', 'lock')).toBe('Lock the SIM on line 1');
    expect(simText(en, 'goip', '1', 'unlock')).toBe('Unlock the SIM on line 1');
    expect(simText(en, 'goip', '2', 'role')).toBe('Role of line 2');
    expect(simText(en, 'goip', '2', 'simulate')).toBe('Simulate an incoming SMS on line 2');
    expect(simText(vi, 'goip', '2', 'setNumber')).toBe('Đặt số cho line 2');
  });

  it('has a text for every action in every kind, with its place filled in', () => {
    for (const kind of DEVICE_KINDS)
      for (const action of ['setNumber', 'simulate', 'lock', 'unlock', 'role'] as const) {
        expect(simText(en, kind, '7', action)).toMatch(/7/);
        expect(simText(vi, kind, '7', action)).not.toMatch(/\{/);
      }
  });

  it('says who locked a SIM and for how long', () => {
    const lock = { locked: true, reason: null, since: null, by: null } as const;
    expect(lockKindText(en, { ...lock, kind: 'auto', until: null })).toBe('Failed sends');
    expect(lockKindText(en, { ...lock, kind: 'device', until: null })).toBe('Device');
    expect(lockKindText(en, { ...lock, kind: 'manual', until: null, by: 'ann' })).toBe('By ann');
    expect(lockKindText(en, { ...lock, kind: 'manual', until: null })).toBe('By ?');

    const now = Date.parse('2026-11-22T14:00:00Z');
    const until = (ms: number) => new Date(now + ms).toISOString();
    expect(lockLeftText(en, { ...lock, kind: 'manual', until: null }, now)).toBe('until unlocked');
    expect(lockLeftText(en, { ...lock, kind: 'device', until: null }, now)).toBe(
      'until the device reports it working',
    );
    // Minutes round up, never below one; from an hour on, hours and minutes.
    expect(lockLeftText(en, { ...lock, kind: 'auto', until: until(59 * 60_000 + 1) }, now)).toBe(
      '1 h 0 min left',
    );
    expect(lockLeftText(en, { ...lock, kind: 'auto', until: until(58 * 60_000 + 1) }, now)).toBe(
      '59 min left',
    );
    expect(lockLeftText(en, { ...lock, kind: 'auto', until: until(-5_000) }, now)).toBe('1 min left');
    expect(lockLeftText(en, { ...lock, kind: 'manual', until: until(150 * 60_000) }, now)).toBe(
      '2 h 30 min left',
    );
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { loadLanguage, translateIn } from '../../i18n/index.tsx';
import { lockReasonText, simStateName } from './sim-text.ts';

beforeAll(() => loadLanguage('vi'));
const vi = (key: Parameters<typeof translateIn>[1], params?: Parameters<typeof translateIn>[2]) =>
  translateIn('vi', key, params);
const en = (key: Parameters<typeof translateIn>[1], params?: Parameters<typeof translateIn>[2]) =>
  translateIn('en', key, params);

describe('SIM texts in the user language', () => {
  it('names SIM states ("Registered") in Vietnamese too', () => {
    expect(simStateName(en, 3, 'Registered')).toBe('Registered');
    expect(simStateName(vi, 3, 'Registered')).toBe('Đã đăng ký mạng');
    expect(simStateName(vi, 99, 'State 99')).toBe('State 99');
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
});

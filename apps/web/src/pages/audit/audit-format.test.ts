import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en.ts';
import { enScreens } from '../../i18n/en-screens.ts';
import type { MessageKey, Params } from '../../i18n/index.tsx';
import { auditValue, changedFields, fieldLabel, targetText } from './audit-format.ts';

const texts: Record<string, string> = { ...en, ...enScreens };
const t = (key: MessageKey, params?: Params) =>
  (texts[key] ?? key).replace(/\{(\w+)\}/g, (_, k: string) => String(params?.[k] ?? ''));
const services = (code: string) => ({ tg: 'Telegram', wa: 'WhatsApp' })[code];

describe('changedFields', () => {
  it('lists changed fields only, with their values as they are', () => {
    expect(
      changedFields(
        { username: 'a', roles: ['User'], balance: '10.00' },
        { username: 'a', roles: ['User', 'SMS'], balance: '25.75' },
      ),
    ).toEqual([
      { field: 'roles', before: ['User'], after: ['User', 'SMS'] },
      { field: 'balance', before: '10.00', after: '25.75' },
    ]);
  });

  it('lists every field of a create and a delete, but not one empty on both sides', () => {
    expect(changedFields(null, { name: 'X', expiresAt: null })).toEqual([{ field: 'name', after: 'X' }]);
    expect(changedFields({ name: 'X' }, null)).toEqual([{ field: 'name', before: 'X' }]);
    expect(changedFields({ reason: null }, { reason: '' })).toEqual([]);
  });
});

describe('auditValue', () => {
  it('shows nothing as "—", never null or an empty string', () => {
    expect(auditValue(t, 'reason', null)).toBe('—');
    expect(auditValue(t, 'reason', '')).toBe('—');
    expect(auditValue(t, 'allowedIps', [])).toBe('—');
  });

  it("shows times in the app's format, not ISO", () => {
    const iso = '2026-11-22T14:05:00.000Z';
    const text = auditValue(t, 'expiresAt', iso);
    expect(text).not.toContain('T14');
    expect(text).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  });

  it('names codes: SIM use, roles, yes/no, services; money as money', () => {
    expect(auditValue(t, 'role', 'rental')).toBe('Rentals only');
    expect(auditValue(t, 'role', 'both')).toBe('Rentals and messaging');
    expect(auditValue(t, 'roles', ['Admin9', 'User'])).toBe('Administrator, User');
    expect(auditValue(t, 'isDefault', true)).toBe('Yes');
    expect(auditValue(t, 'code', 'tg', services)).toBe('Telegram');
    expect(auditValue(t, 'balance', '11.2275')).toBe('$11.2275');
  });

  it('names every field, the ones the catalogue lacks as words', () => {
    expect(fieldLabel(t, 'isDefault')).toBe('Default key');
    expect(fieldLabel(t, 'expiresAt')).toBe('Expires');
    expect(fieldLabel(t, 'someNewThing')).toBe('Some new thing');
  });
});

describe('targetText', () => {
  it('names the service of a spent number and the settings, not their codes', () => {
    const e = { kind: 'service.numberSpent', targetId: 's1', targetLabel: 'tg 15550001111' };
    expect(targetText(t, e, services)).toBe('Telegram 15550001111');
    expect(
      targetText(t, { kind: 'settings.update', targetId: null, targetLabel: 'Bulk SMS limits' }, services),
    ).toBe('Bulk SMS limits');
    expect(targetText(t, { kind: 'user.update', targetId: 'u1', targetLabel: null }, services)).toBe('u1');
  });
});

import { describe, expect, it } from 'vitest';
import { MarkSpentBody, normalizePhoneNumber } from './services.ts';

describe('spent numbers', () => {
  it('normalizes a typed phone number or refuses it', () => {
    expect(normalizePhoneNumber('+1 (202) 555-0147')).toBe('+12025550147');
    expect(normalizePhoneNumber('1.202.555.0147')).toBe('12025550147');
    expect(normalizePhoneNumber('18919591559')).toBe('18919591559');
    for (const bad of ['', '12', 'abc', '++1202', '1202555x', '1'.repeat(21), '+']) {
      expect(normalizePhoneNumber(bad)).toBeUndefined();
    }
  });

  it('bounds the mark body before any rule runs', () => {
    const ok = { serviceId: 'x', phoneNumber: '12025550147', reason: 'banned' };
    expect(MarkSpentBody.safeParse(ok).success).toBe(true);
    expect(MarkSpentBody.safeParse({ ...ok, reason: 'x'.repeat(201) }).success).toBe(false);
    expect(MarkSpentBody.safeParse({ ...ok, phoneNumber: '1'.repeat(33) }).success).toBe(false);
    expect(MarkSpentBody.safeParse({ ...ok, reason: 'a\u0000b' }).success).toBe(false);
    expect(MarkSpentBody.safeParse({ serviceId: 'x', phoneNumber: '1' }).success).toBe(false);
  });
});

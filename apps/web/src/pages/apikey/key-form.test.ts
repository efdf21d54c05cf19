import { WEBHOOK_EVENTS } from '@simdock/contract';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_KEY_FORM,
  eventsSummary,
  expiryOf,
  type KeyFormValues,
  keyFormProblems,
  localDay,
  prefixText,
  toCreateBody,
} from './key-form.ts';

const form = (over: Partial<KeyFormValues>): KeyFormValues => ({
  ...EMPTY_KEY_FORM,
  name: 'ci',
  scopes: ['rental'],
  ...over,
});

describe('expiry days', () => {
  it('a key chosen to expire on a day works through it: it stops at the next local midnight', () => {
    expect(expiryOf('2030-01-31')).toBe(new Date(2030, 1, 1).toISOString());
    expect(expiryOf('2030-12-31')).toBe(new Date(2031, 0, 1).toISOString());
  });

  it('no day or an impossible one is no expiry', () => {
    for (const day of ['', '2030-02-30', '2030-13-01', '31/01/2030']) expect(expiryOf(day)).toBeNull();
  });

  it('reads the local calendar day', () => {
    expect(localDay(new Date(2030, 0, 5, 23, 59))).toBe('2030-01-05');
  });
});

describe('keyFormProblems', () => {
  const today = '2030-01-10';

  it('accepts a name, a scope, addresses one per line and a day from today on', () => {
    expect(
      keyFormProblems(form({ allowedIps: '203.0.113.7\n\n2001:db8::/32\n', expiresOn: today }), today),
    ).toEqual({});
  });

  it('names each field’s problem in the catalogue’s words', () => {
    expect(keyFormProblems({ ...EMPTY_KEY_FORM, name: '  ' }, today)).toEqual({
      name: { key: 'apikey.keyNameRequired' },
      scopes: { key: 'apikey.keyScopesRequired' },
    });
    expect(keyFormProblems(form({ allowedIps: '10.0.0.1\nexample.com\n300.1.1.1' }), today)).toEqual({
      allowedIps: { key: 'apikey.keyIpInvalid', params: { entry: 'example.com' } },
    });
    const many = Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`).join('\n');
    expect(keyFormProblems(form({ allowedIps: many }), today)).toEqual({
      allowedIps: { key: 'apikey.keyIpTooMany', params: { max: 20, count: 21 } },
    });
    expect(keyFormProblems(form({ expiresOn: '2030-01-09' }), today)).toEqual({
      expiresOn: { key: 'apikey.keyExpiryPast' },
    });
  });
});

describe('toCreateBody', () => {
  it('trims the name, keeps the scopes in order, normalises the addresses and makes the expiry a time', () => {
    expect(
      toCreateBody({
        name: '  billing  ',
        scopes: ['messaging:read', 'rental'],
        allowedIps: ' 10.1.2.3/8 \n2001:DB8::1\n\n10.0.0.0/8',
        expiresOn: '2030-01-31',
      }),
    ).toEqual({
      name: 'billing',
      scopes: ['rental', 'messaging:read'],
      allowedIps: ['10.0.0.0/8', '2001:db8::1'],
      expiresAt: new Date(2030, 1, 1).toISOString(),
    });
  });

  it('leaves out no addresses and no expiry', () => {
    expect(toCreateBody(form({ allowedIps: '\n  \n' }))).toEqual({ name: 'ci', scopes: ['rental'] });
  });
});

describe('list texts', () => {
  it('shows a prefix with an ellipsis, or nothing when unreadable', () => {
    expect(prefixText({ prefix: 'sd_abcdefg' })).toBe('sd_abcdefg…');
    expect(prefixText({ prefix: null })).toBeNull();
  });

  it('sums up a URL’s events: every event is "all", else the chosen ones in order', () => {
    expect(eventsSummary([...WEBHOOK_EVENTS].reverse())).toBeNull();
    expect(eventsSummary(['message.failed', 'code.received'])).toEqual(['code.received', 'message.failed']);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALLOWED_IPS_MAX,
  allowedIpsProblem,
  checkAllowedIps,
  displayIp,
  formatIp,
  ipAllowed,
  normalizeIpRange,
  parseIp,
  parseIpRange,
} from './cidr.ts';
import { assertProperty } from './property-seeds.ts';

describe('parseIp', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    ['0.0.0.0', '0.0.0.0'],
    ['255.255.255.255', '255.255.255.255'],
    [' 10.0.0.1 ', '10.0.0.1'],
    ['::1', '::1'],
    ['::', '::'],
    ['2001:DB8::1', '2001:db8::1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['fe80::1:2', 'fe80::1:2'],
    ['1::', '1::'],
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221'],
    // IPv4-mapped IPv6 is the IPv4 address.
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::FFFF:7f00:1', '127.0.0.1'],
    ['0:0:0:0:0:ffff:203.0.113.9', '203.0.113.9'],
  ])('reads %s as %s', (text, normal) => {
    const a = parseIp(text);
    expect(a).not.toBeNull();
    expect(formatIp(a!)).toBe(normal);
  });

  it.each([
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4',
    '1.2.3.-4',
    '1.2.3.4/32',
    'a.b.c.d',
    ':::',
    ':1',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    '12345::1',
    'fe80::1%eth0',
    'g::1',
    '::1.2.3',
    '1.2.3.4::',
    'localhost',
  ])('refuses %j', (text) => {
    expect(parseIp(text)).toBeNull();
  });
});

describe('parseIpRange and normalizeIpRange', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['203.0.113.7/32', '203.0.113.7'],
    ['203.0.113.0/24', '203.0.113.0/24'],
    ['203.0.113.77/24', '203.0.113.0/24'],
    ['10.200.1.1/12', '10.192.0.0/12'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['2001:DB8::/32', '2001:db8::/32'],
    ['2001:db8:abcd:12::1/64', '2001:db8:abcd:12::/64'],
    ['::1/128', '::1'],
    ['::/0', '::/0'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::ffff:10.0.0.0/104', '10.0.0.0/8'],
    // Below /96 it is no IPv4 range any more.
    ['::ffff:0:0/95', '::fffe:0:0/95'],
  ])('%s is %s', (text, normal) => {
    expect(normalizeIpRange(text)).toBe(normal);
  });

  it.each(['1.2.3.4/33', '::/129', '1.2.3.4/', '1.2.3.4/08', '1.2.3.4/a', '1.2.3.4/24/1', '/24', 'x/8'])(
    'refuses %j',
    (text) => {
      expect(parseIpRange(text)).toBeNull();
    },
  );
});

describe('ipAllowed', () => {
  it('allows any address when there is no rule', () => {
    expect(ipAllowed('198.51.100.1', [])).toBe(true);
    expect(ipAllowed('2001:db8::1', [])).toBe(true);
  });

  it('matches IPv4 addresses and ranges', () => {
    const rules = ['203.0.113.7', '10.0.0.0/8'];
    expect(ipAllowed('203.0.113.7', rules)).toBe(true);
    expect(ipAllowed('10.255.0.1', rules)).toBe(true);
    expect(ipAllowed('203.0.113.8', rules)).toBe(false);
    expect(ipAllowed('11.0.0.1', rules)).toBe(false);
  });

  it('matches IPv6 addresses and ranges', () => {
    const rules = ['2001:db8::/32', '::1'];
    expect(ipAllowed('2001:db8:ffff::42', rules)).toBe(true);
    expect(ipAllowed('::1', rules)).toBe(true);
    expect(ipAllowed('2001:db9::1', rules)).toBe(false);
    expect(ipAllowed('::2', rules)).toBe(false);
  });

  it('counts an IPv4-mapped IPv6 caller as its IPv4 address', () => {
    expect(ipAllowed('::ffff:127.0.0.1', ['127.0.0.0/8'])).toBe(true);
    expect(ipAllowed('::ffff:203.0.113.9', ['203.0.113.9'])).toBe(true);
    expect(ipAllowed('::ffff:203.0.113.9', ['203.0.113.10'])).toBe(false);
    // A mapped rule is its IPv4 range too.
    expect(ipAllowed('127.0.0.1', ['::ffff:127.0.0.1'])).toBe(true);
  });

  it('never matches across versions, an unreadable caller, or an unreadable rule', () => {
    expect(ipAllowed('1.2.3.4', ['::/0'])).toBe(false);
    expect(ipAllowed('::1', ['0.0.0.0/0'])).toBe(false);
    expect(ipAllowed('unknown', ['0.0.0.0/0'])).toBe(false);
    expect(ipAllowed('1.2.3.4', ['nonsense'])).toBe(false);
  });

  it('a /0 range takes every address of its version; a full-length one only itself', async () => {
    await assertProperty(
      fc.property(fc.ipV4(), fc.ipV4(), (a, b) => {
        expect(ipAllowed(a, ['0.0.0.0/0'])).toBe(true);
        expect(ipAllowed(a, [`${a}/32`])).toBe(true);
        expect(ipAllowed(b, [a])).toBe(normalizeIpRange(a) === normalizeIpRange(b));
      }),
    );
  });

  it('an address is inside every range built from it, whatever the prefix', async () => {
    await assertProperty(
      fc.property(fc.ipV6(), fc.integer({ min: 0, max: 128 }), (a, prefix) => {
        const parsed = parseIp(a);
        if (parsed?.version !== 6) return;
        expect(ipAllowed(a, [`${a}/${prefix}`])).toBe(true);
        // The normal form reads back as the same address.
        expect(formatIp(parseIp(formatIp(parsed))!)).toBe(formatIp(parsed));
      }),
    );
  });
});

describe('checkAllowedIps', () => {
  it('normalises, skips blank lines and drops repeats', () => {
    expect(checkAllowedIps(['203.0.113.7', '', '  ', '10.1.2.3/8', '10.0.0.0/8', '2001:DB8::/32'])).toEqual({
      ok: true,
      ranges: ['203.0.113.7', '10.0.0.0/8', '2001:db8::/32'],
    });
    expect(checkAllowedIps([])).toEqual({ ok: true, ranges: [] });
  });

  it('names the first entry that is no address', () => {
    const check = checkAllowedIps(['1.2.3.4', 'example.com', '300.1.1.1']);
    expect(check).toEqual({ ok: false, problem: 'invalid', entry: 'example.com' });
    if (!check.ok) {
      expect(allowedIpsProblem(check)).toBe('"example.com" is not an IPv4 or IPv6 address or CIDR range.');
    }
  });

  it(`refuses more than ${ALLOWED_IPS_MAX}`, () => {
    const many = Array.from({ length: ALLOWED_IPS_MAX + 1 }, (_, i) => `10.0.0.${i}`);
    expect(checkAllowedIps(many.slice(0, ALLOWED_IPS_MAX)).ok).toBe(true);
    const check = checkAllowedIps(many);
    expect(check).toEqual({ ok: false, problem: 'too_many', count: ALLOWED_IPS_MAX + 1 });
    if (!check.ok) expect(allowedIpsProblem(check)).toBe('At most 20 allowed addresses (21 given).');
  });
});

describe('displayIp', () => {
  it('shows a mapped caller as IPv4 and keeps unreadable text', () => {
    expect(displayIp('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(displayIp('2001:0db8::0001')).toBe('2001:db8::1');
    expect(displayIp('unknown')).toBe('unknown');
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpoints } from '@simdock/contract';
import { fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { isPrivateAddress, PRIVATE_TARGET, publicOnlyDispatcher, publicOnlyLookup } from './url-safety.ts';

// The SSRF guard in production mode: every address form that is, embeds or reaches a private
// IPv4 or IPv6 address is refused, public ones pass, and the socket's own lookup refuses a
// name that resolves to a private address (so DNS rebinding cannot reach one).

const refused: [string, string][] = [
  ['127.0.0.1', 'IPv4 loopback'],
  ['127.255.255.254', 'IPv4 loopback, end of range'],
  ['10.1.2.3', 'RFC 1918'],
  ['172.20.0.1', 'RFC 1918'],
  ['192.168.1.1', 'RFC 1918'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'this network'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.1', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['::1', 'IPv6 loopback'],
  ['::', 'IPv6 unspecified'],
  ['fd00::1', 'unique local'],
  ['fc00::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'multicast'],
  ['100::1', 'discard'],
  ['2001:db8::1', 'documentation'],
  ['2001:2::1', 'benchmarking'],
  ['3fff::1', 'documentation (new)'],
  ['4000::1', 'outside 2000::/3'],
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['::a9fe:a9fe', 'IPv4-compatible link-local, hex'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::ffff:0:7f00:1', 'SIIT (RFC 6145) loopback'],
  ['64:ff9b::7f00:1', 'NAT64 loopback'],
  ['64:ff9b::10.0.0.1', 'NAT64 private'],
  ['64:ff9b:1::a9fe:a9fe', 'local-use NAT64 link-local'],
  ['2002:7f00:1::', '6to4 of loopback'],
  ['2002:a00:1::1', '6to4 of 10.0.0.1'],
  ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
  ['2001:0:7f00:1::1', 'Teredo with a loopback server'],
  ['2001::ffff:ffff:80ff:fffe', 'Teredo with a loopback client (127.0.0.1 inverted)'],
  ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'Teredo with a private client (10.0.0.1 inverted)'],
  ['2001::', 'Teredo of 0.0.0.0'],
  ['fe80::1%eth0', 'zoned link-local'],
  ['localhost', 'not an address at all'],
];

const allowed: [string, string][] = [
  ['8.8.8.8', 'public IPv4'],
  ['1.1.1.1', 'public IPv4'],
  ['93.184.216.34', 'public IPv4'],
  ['2606:4700:4700::1111', 'public IPv6'],
  ['2a00:1450:4001:80b::200e', 'public IPv6'],
  ['::ffff:8.8.8.8', 'IPv4-mapped public'],
  ['64:ff9b::808:808', 'NAT64 of a public address'],
  ['2002:808:808::1', '6to4 of a public address'],
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'Teredo with public server and client'],
];

describe('isPrivateAddress', () => {
  it.each(refused)('refuses %s (%s)', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });
  it.each(allowed)('allows %s (%s)', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
});

describe('in production (WEBHOOK_ALLOW_PRIVATE off)', () => {
  let s: TestServer;
  let receiver: Server;
  let port = 0;
  let hits = 0;

  beforeAll(async () => {
    s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'false' } });
    receiver = createServer((_req, res) => {
      hits += 1;
      res.writeHead(200).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => receiver.close(r));
    await s.close();
  });

  it('refuses webhook URLs whose IPv6 literal embeds or reaches a private address', async () => {
    const u = await s.createUser();
    for (const [ip, why] of refused.filter(([ip]) => ip.includes(':') && !ip.includes('%'))) {
      const res = await s.api(endpoints.webhooks.add, {
        body: { url: `http://[${ip}]:8080/hook` },
        token: u.token,
        headers: await s.reauth(u),
      });
      expect(res.status, `${ip} (${why})`).toBe(400);
      expect(res.body.error).toBe('webhook_url_refused');
    }
  });

  it('the socket lookup refuses a name that resolves to a private address', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      publicOnlyLookup('localhost', { all: true }, (e) => resolve(e)),
    );
    expect(err?.message).toBe(PRIVATE_TARGET);
  });

  it('a POST through the public-only dispatcher never reaches a local server by name', async () => {
    hits = 0;
    const sent = fetch(`http://localhost:${port}/hook`, {
      method: 'POST',
      body: '{}',
      dispatcher: publicOnlyDispatcher(),
    });
    await expect(sent).rejects.toThrow();
    const cause = await sent.catch((e: Error & { cause?: Error }) => e.cause?.message);
    expect(cause).toBe(PRIVATE_TARGET);
    expect(hits).toBe(0);
    // The same request without the guard does reach it: the refusal is the lookup's doing.
    const plain = await fetch(`http://localhost:${port}/hook`, { method: 'POST', body: '{}' });
    expect(plain.status).toBe(200);
    expect(hits).toBe(1);
  });
});

import type { LookupAddress, LookupOneOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';

// SSRF guard for webhook URLs: in production a webhook may not reach the server's own network
// (loopback, private, link-local, carrier-grade NAT, multicast, reserved, and IPv6 forms that
// carry such an IPv4 address). Checked when a URL is saved, and again on the address each POST
// actually connects to (a name may resolve elsewhere later: DNS rebinding).

/** The IPv4 address inside an IPv6 transition form (mapped, NAT64, 6to4, Teredo), or none. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = v6.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  switch (v6.range()) {
    // ::a.b.c.d (IPv4-compatible) and ::ffff:a.b.c.d (IPv4-mapped) and ::ffff:0:a.b.c.d (SIIT).
    case 'ipv4Mapped':
    case 'rfc6145':
    // 64:ff9b::/96 and 64:ff9b:1::/48 (NAT64): the IPv4 address is the last 32 bits.
    case 'rfc6052':
      return [v4(p[6]!, p[7]!)];
    // 2002:AABB:CCDD::/48: the relay's IPv4 address follows the prefix.
    case '6to4':
      return [v4(p[1]!, p[2]!)];
    // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC: the server's address, and the client's inverted.
    case 'teredo':
      return [v4(p[2]!, p[3]!), v4(p[6]! ^ 0xffff, p[7]! ^ 0xffff)];
    default:
      return [];
  }
}

const TRANSITION = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo']);

/** Whether an IP address is one a webhook may not reach in production. Anything not an IP is. */
export function isPrivateAddress(address: string): boolean {
  if (!isIP(address)) return true;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return true;
  }
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.zoneId) return true;
  const range = v6.range();
  if (TRANSITION.has(range)) {
    // A transition form is as private as any IPv4 address it carries.
    return embeddedIPv4(v6).some((v4) => v4.range() !== 'unicast');
  }
  // Only 2000::/3 is handed out as global unicast; the rest is reserved or special.
  return range !== 'unicast' || !v6.match(ipaddr.IPv6.parse('2000::'), 3);
}

/** Why this URL may not be a webhook, or null. Only the form is checked here (no DNS). */
export function webhookUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter a full URL such as https://example.com/hooks/sms.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'Webhook URLs must start with http:// or https://.';
  if (url.username || url.password) return 'Webhook URLs may not contain a user name or password.';
  if (!url.hostname) return 'Enter a full URL such as https://example.com/hooks/sms.';
  return null;
}

export const PRIVATE_TARGET = 'Webhook URLs must point to a public address, not a private or local one.';

/**
 * Resolves the URL's host and refuses private addresses unless `allowPrivate` (tests, development).
 * Returns why it is refused, or null.
 */
export async function webhookTargetProblem(raw: string, allowPrivate: boolean): Promise<string | null> {
  const form = webhookUrlProblem(raw);
  if (form || allowPrivate) return form;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return `The host ${host} could not be found.`;
    }
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) return PRIVATE_TARGET;
  return null;
}

/**
 * A `lookup` for sockets that fails when the name resolves to any private address, so the
 * address connected to is the one checked (a second resolution cannot rebind to a private one).
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  const all = (options as { all?: boolean }).all === true;
  dnsLookup(hostname, { ...(options as LookupOneOptions), all: true }, (err, found) => {
    if (err) return callback(err, '', 0);
    const list = found as LookupAddress[];
    if (list.length === 0 || list.some((a) => isPrivateAddress(a.address))) {
      const refused = Object.assign(new Error(PRIVATE_TARGET), { code: 'EPRIVATEADDRESS' });
      return callback(refused, '', 0);
    }
    if (all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    const first = list[0]!;
    return callback(null, first.address, first.family);
  });
};

let publicAgent: Agent | undefined;

/** The fetch dispatcher for webhook POSTs in production: it connects to public addresses only. */
export function publicOnlyDispatcher(): Agent {
  publicAgent ??= new Agent({ connect: { lookup: publicOnlyLookup } });
  return publicAgent;
}

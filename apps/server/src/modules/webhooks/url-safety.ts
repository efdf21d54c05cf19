import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// SSRF guard for webhook URLs: in production a webhook may not reach the server's own network
// (loopback, private, link-local, carrier-grade NAT, multicast, reserved). Checked when a URL is
// saved and again before every POST (a name may resolve elsewhere later).

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP address is one a webhook may not reach in production. */
export function isPrivateAddress(address: string): boolean {
  const v = isIP(address);
  if (v === 4) return blocked.check(address, 'ipv4');
  if (v === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1]!, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
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
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) {
    return 'Webhook URLs must point to a public address, not a private or local one.';
  }
  return null;
}

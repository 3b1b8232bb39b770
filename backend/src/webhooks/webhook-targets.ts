import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a webhook may be sent to (SSRF): only http(s) URLs whose host resolves to public
 * addresses. Checked when a webhook is saved and again before every send, and the connection is
 * then made to the address checked (no second lookup a rebinding DNS server could answer
 * differently). WEBHOOK_ALLOW_PRIVATE=1 lifts the address rule (tests, intranets), not the scheme.
 */

/** Ranges a webhook never reaches: this host, private networks, link-local (cloud metadata), CGNAT, multicast, reserved. */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, with the metadata service 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local, with fd00:ec2::254 (the EC2 metadata service over IPv6)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** An IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), checked as IPv4. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether a webhook may connect to this IP address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !BLOCKED.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return isPublicAddress(v4);
    return !BLOCKED.check(address, 'ipv6');
  }
  return false;
}

/** A target that passed the check: the URL, and the address to connect to. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/**
 * A DNS lookup that answers the checked address whatever it is asked: a request made with it
 * connects to that very address (no second lookup a rebinding DNS server could answer
 * differently), while its Host header and TLS name stay the URL's.
 */
export function lookupOf(target: CheckedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (err: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
}

/** Why a target was refused: the text the API and the delivery log show. */
export class UnsafeTargetError extends Error {}

export type HostResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * Parses and checks a webhook URL: http or https, no user name or password, and a host whose
 * every address is public (unless `allowPrivate`). Answers the address to connect to.
 */
export async function checkTarget(raw: string, allowPrivate: boolean, resolve: HostResolver = systemResolver): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeTargetError('The URL is not a valid address.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeTargetError('The URL must start with http:// or https://.');
  if (url.username || url.password) throw new UnsafeTargetError('The URL must not contain a user name or password.');
  // URL keeps IPv6 literals in brackets.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new UnsafeTargetError(`The host ${host} could not be found.`);
    }
    if (!addresses.length) throw new UnsafeTargetError(`The host ${host} could not be found.`);
  }
  // Every address must pass: a name answering one public and one private address could be sent to either.
  const refused = allowPrivate ? undefined : addresses.find((entry) => !isPublicAddress(entry.address));
  if (refused) {
    throw new UnsafeTargetError(
      `The URL points to a private, loopback, link-local or otherwise reserved address (${refused.address}); webhooks are sent to public addresses only.`,
    );
  }
  const chosen = addresses[0];
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { UAParser } from 'ua-parser-js';

/** What a request tells of its client: its user agent and address (a session row keeps both). */
export interface ClientInfo {
  userAgent?: string;
  ip?: string;
}

/** A sign-in's device as the sessions list and the new-device alert show it. */
export interface ClientDevice {
  /** 'Firefox on Windows', 'Mobile Safari on iOS', 'curl', 'Unknown device'. */
  label: string;
  browser: string | null;
  os: string | null;
  /**
   * What makes two sign-ins 'the same device' for the new-device alert: the browser family and
   * the OS, without versions (a browser update is not a new device), lower-cased.
   */
  key: string;
}

export const UNKNOWN_DEVICE = 'Unknown device';

/** First product token of a user agent no browser rule knows ('curl/8.0' → 'curl'), for API clients. */
function productOf(userAgent: string): string | null {
  const token = /^([A-Za-z][\w.-]{0,39})(?:\/|\s|$)/.exec(userAgent.trim())?.[1];
  return token ?? null;
}

/** The device of a user agent (ua-parser-js): browser family and OS, no versions. */
export function describeDevice(userAgent: string | null | undefined): ClientDevice {
  const ua = (userAgent ?? '').slice(0, 512);
  if (!ua.trim()) return { label: UNKNOWN_DEVICE, browser: null, os: null, key: 'unknown' };
  const parsed = UAParser(ua);
  const browser = parsed.browser.name?.trim() || null;
  const os = parsed.os.name?.trim() || null;
  if (!browser && !os) {
    const product = productOf(ua);
    return product
      ? { label: product, browser: null, os: null, key: `client:${product.toLowerCase()}` }
      : { label: UNKNOWN_DEVICE, browser: null, os: null, key: 'unknown' };
  }
  const label = browser && os ? `${browser} on ${os}` : browser ? browser : `Unknown browser on ${os}`;
  return { label, browser, os, key: `${(browser ?? '?').toLowerCase()}|${(os ?? '?').toLowerCase()}` };
}

/** Addresses that only say 'a machine near the server': loopback, private, link-local, CGNAT, unique-local. */
const LOCAL = new BlockList();
LOCAL.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('10.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('172.16.0.0', 12, 'ipv4');
LOCAL.addSubnet('192.168.0.0', 16, 'ipv4');
LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LOCAL.addSubnet('100.64.0.0', 10, 'ipv4');
LOCAL.addSubnet('0.0.0.0', 8, 'ipv4');
LOCAL.addAddress('::1', 'ipv6');
LOCAL.addAddress('::', 'ipv6');
LOCAL.addSubnet('fc00::', 7, 'ipv6');
LOCAL.addSubnet('fe80::', 10, 'ipv6');

export const LOCAL_NETWORK = 'Local network';
export const UNKNOWN_PLACE = 'Unknown location';

/**
 * An approximate place from the client address, without a geo service: a public IPv4 address with
 * its last part masked ('203.0.113.x'), a public IPv6 address as its /48 prefix
 * ('2001:db8:85a3::/48'), 'Local network' for loopback and private ranges (the server's own
 * machine or network, or a proxy not listed in TRUST_PROXY), 'Unknown location' without one.
 * Masking keeps the list useful ('that is my provider') without storing or showing more than that.
 */
export function approximatePlace(ip: string | null | undefined): string {
  let address = (ip ?? '').trim();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) address = mapped[1];
  if (isIPv4(address)) {
    if (LOCAL.check(address, 'ipv4')) return LOCAL_NETWORK;
    return `${address.split('.').slice(0, 3).join('.')}.x`;
  }
  const zoneless = address.split('%')[0];
  if (isIPv6(zoneless)) {
    if (LOCAL.check(zoneless, 'ipv6')) return LOCAL_NETWORK;
    return `${ipv6Prefix48(zoneless)}::/48`;
  }
  return UNKNOWN_PLACE;
}

/** The first three groups of an IPv6 address, '::' expanded, leading zeros dropped. */
function ipv6Prefix48(address: string): string {
  const [head, tail = ''] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = address.includes('::')
    ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
    : headGroups;
  return groups
    .slice(0, 3)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':');
}

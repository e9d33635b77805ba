import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * The SSRF guard: a notify URL is the merchant's to choose, so in production the service must not be
 * made to POST to its own network (loopback, private ranges, link-local cloud metadata, …). The check
 * is made on the address actually connected to (a `lookup` for node:http), so a name that resolves to a
 * private address, or changes its answer between a check and the connection (DNS rebinding), is refused.
 */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64: could reach an IPv4 private address
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

export class TargetRefused extends Error {
  readonly code = 'ETARGETREFUSED';
}

/** True for an address on the public internet. IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as IPv4. */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  if (version === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1]);
  }
  return !NON_PUBLIC.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http(s) requests that refuses non-public answers. Node calls it with `all: true`
 * when it tries several addresses (autoSelectFamily), so both answer shapes are handled.
 */
export function publicOnlyLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options }, (error, address: string | LookupAddress[], family?: number) => {
    if (error) return callback(error, address, family);
    const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
    const refused = addresses.find((candidate) => !isPublicAddress(candidate));
    if (refused !== undefined) return callback(new TargetRefused(`${hostname} resolves to ${refused}, which is not a public address`), address, family);
    callback(null, address, family);
  });
}

/** The host of a URL when it is an IP literal ([::1] unbracketed), else null: such hosts skip the lookup. */
export function ipLiteral(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : null;
}

declare module 'geoip-country' {
  /** Country of an IPv4/IPv6 address from the package's bundled database; null for private or unknown. */
  export function lookup(ip: string): { country: string; name: string } | null;
}

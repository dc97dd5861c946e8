import dns, { type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Server-side request forgery guard for outgoing webhook calls: a target must resolve only to
 * public unicast addresses, unless the allow-list (`WEBHOOK_ALLOWED_HOSTS`: host names,
 * `*.suffix` names, addresses or CIDR ranges) permits it. The check runs at creation (every
 * address the name resolves to) and again inside the HTTP agent's DNS lookup at connection time,
 * so a name that later resolves elsewhere (DNS rebinding) is refused too.
 */
export class BlockedTargetError extends Error {
  readonly code = 'target_blocked';
}

/**
 * IPv6 ranges that carry an IPv4 address in their last 32 bits (or, for 6to4, bits 16-48): the
 * embedded address decides. ipaddr.js names most of them; the deprecated IPv4-compatible form
 * (::a.b.c.d, ::/96), which it classes as unicast, is added here.
 */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052')
    return new ipaddr.IPv4(bytes.slice(12, 16));
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  // ::/128 and ::1 are unspecified and loopback, not IPv4-compatible addresses.
  if (range === 'unicast' && address.match(IPV4_COMPATIBLE)) return new ipaddr.IPv4(bytes.slice(12, 16));
  return undefined;
}

/**
 * Whether an address is public unicast, per ipaddr.js's special-purpose ranges (IANA registries):
 * anything it does not class as `unicast` (private, loopback, link-local, CGNAT, multicast,
 * reserved, documentation, benchmarking, Teredo, ...) is refused, and an IPv4 address carried
 * inside an IPv6 one (mapped, IPv4-compatible, SIIT, NAT64, 6to4) is judged as that IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  const text = address.split('%')[0]!; // a zone index (fe80::1%eth0) names an interface, not a host
  if (!ipaddr.isValid(text)) return false;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const inner = embeddedIpv4(parsed as ipaddr.IPv6);
  if (inner) return inner.range() === 'unicast';
  return parsed.range() === 'unicast';
}

export type TargetPolicy = {
  /** Throws BlockedTargetError when the URL's host is, or resolves to, a refused address. */
  check(url: URL): Promise<void>;
  /** A DNS lookup for http(s) agents that refuses connections to refused addresses. */
  lookup: LookupFunction;
  /** Whether an address (already resolved) may be contacted for this host name. */
  allows(hostname: string, address: string): boolean;
};

export const hostnameOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

export function createTargetPolicy(allowedHosts: string[]): TargetPolicy {
  const names = new Set<string>();
  const suffixes: string[] = [];
  const allowedNets = new BlockList();
  for (const raw of allowedHosts) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const [net, prefix] = entry.split('/');
    const family = isIP(net!);
    if (family) {
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) allowedNets.addAddress(net!, type);
      else allowedNets.addSubnet(net!, Number(prefix), type);
    } else if (entry.startsWith('*.')) {
      suffixes.push(entry.slice(1));
    } else {
      names.add(entry);
    }
  }
  const nameAllowed = (hostname: string) =>
    names.has(hostname) || suffixes.some((suffix) => hostname.endsWith(suffix));
  const addressAllowed = (address: string) => {
    const family = isIP(address);
    if (!family) return false;
    if (allowedNets.check(address.split('%')[0]!, family === 4 ? 'ipv4' : 'ipv6')) return true;
    return isPublicAddress(address);
  };
  const allows = (hostname: string, address: string) => nameAllowed(hostname) || addressAllowed(address);

  const refuse = (hostname: string, address: string) =>
    new BlockedTargetError(
      `${hostname} resolves to ${address}, a private, loopback or reserved address that webhooks may not call`,
    );

  const lookup: LookupFunction = (hostname, options, callback) => {
    const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    dns.lookup(host, { all: true, verbatim: true, family: options.family }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as LookupAddress[];
      const refused = list.find((a) => !allows(host, a.address));
      if (refused) return callback(refuse(host, refused.address) as NodeJS.ErrnoException, '', 0);
      if (list.length === 0) return callback(new Error(`${host} has no address`), '', 0);
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };

  return {
    lookup,
    allows,
    async check(url) {
      const host = hostnameOf(url);
      if (nameAllowed(host)) return;
      if (isIP(host)) {
        if (!addressAllowed(host)) throw refuse(host, host);
        return;
      }
      let addresses: LookupAddress[];
      try {
        addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
      } catch (error) {
        throw new BlockedTargetError(`${host} cannot be resolved (${(error as NodeJS.ErrnoException).code})`);
      }
      const refused = addresses.find((a) => !addressAllowed(a.address));
      if (refused) throw refuse(host, refused.address);
    },
  };
}

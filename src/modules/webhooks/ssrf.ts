import dns, { type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

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

const NON_PUBLIC_V4: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata endpoints
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const NON_PUBLIC_V6: Array<[string, number]> = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const nonPublic = new BlockList();
for (const [net, prefix] of NON_PUBLIC_V4) nonPublic.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of NON_PUBLIC_V6) nonPublic.addSubnet(net, prefix, 'ipv6');

/** The 16 bytes of an IPv6 address (valid per net.isIP). */
function ipv6Bytes(address: string): number[] {
  let text = address.split('%')[0]!;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail.push(...dotted[1]!.split('.').map(Number));
    text = text.slice(0, -dotted[1]!.length);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const words = (part: string | undefined) => (part ? part.split(':').filter(Boolean) : []);
  const left = words(head);
  const right = words(rest);
  const missing = 8 - tail.length / 2 - left.length - right.length;
  const all = [...left, ...Array(rest === undefined ? 0 : missing).fill('0'), ...right];
  const bytes = all.flatMap((word) => {
    const value = Number.parseInt(word, 16);
    return [value >> 8, value & 0xff];
  });
  return [...bytes, ...tail];
}

/** An IPv4 address carried inside an IPv6 one (mapped, NAT64, 6to4), which must be checked as such. */
function embeddedIpv4(address: string): string | undefined {
  const b = ipv6Bytes(address);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const v4 = (at: number) => b.slice(at, at + 4).join('.');
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12); // ::ffff:a.b.c.d
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return v4(12); // 64:ff9b::/96
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2); // 2002::/16
  return undefined;
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !nonPublic.check(address, 'ipv4');
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== undefined) return isPublicAddress(inner);
    return !nonPublic.check(address.split('%')[0]!, 'ipv6');
  }
  return false;
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

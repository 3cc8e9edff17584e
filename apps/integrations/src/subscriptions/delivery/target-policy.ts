import { Resolver as DnsResolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to (all of them: one bad address is enough to refuse). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** An origin of SUBSCRIPTION_HTTP_ALLOWED_ORIGINS; without a port it allows every port of the host. */
export interface AllowedOrigin {
  protocol: 'http:' | 'https:';
  hostname: string;
  port?: number;
}

/** A target URL that passed the rules, and the address checked for it: the one to connect to. */
export interface CheckedTarget {
  url: URL;
  address: ResolvedAddress;
}

/** Why a URL may not be a webhook target; the message says why, for the caller. */
export class TargetRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

const cidr = (text: string): [ipaddr.IPv6, number] => ipaddr.IPv6.parseCIDR(text);

// Addresses that are not "somewhere on the internet": the service's own network, the cloud
// metadata endpoint (169.254.169.254), the machine itself. OWASP API7 (SSRF). ipaddr.js names the
// special ranges (RFC 6890 and later); only what it calls `unicast` is public, and for IPv6 only
// within global unicast (2000::/3).
const GLOBAL_UNICAST = cidr('2000::/3');

/** How a refusal names ipaddr.js's ranges; a range it adds later is refused as reserved. */
const RANGE_KINDS: Readonly<Record<string, string>> = {
  unspecified: 'unspecified ("this network")',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'shared (carrier-grade NAT)',
  private: 'private',
  reserved: 'reserved',
  benchmarking: 'reserved (benchmarking)',
  uniqueLocal: 'unique local (private)',
  deprecatedSiteLocal: 'site-local (private)',
  discard: 'reserved (discard-only)',
};

/**
 * IPv6 ranges that carry an IPv4 address and reach it: judged by that address. The local-use NAT64
 * prefix (64:ff9b:1::/48, RFC 8215) translates to whatever its operator chose, and the SIIT
 * (IPv4-translated, ::ffff:0:0:0/96) and Teredo (2001::/32) forms have no business in a webhook
 * target's DNS answer: those are refused whatever they carry.
 */
const IPV4_CARRIERS: readonly { range: [ipaddr.IPv6, number]; kind: string; at: number }[] = [
  { range: cidr('::ffff:0:0/96'), kind: 'IPv4-mapped', at: 12 },
  { range: cidr('64:ff9b::/96'), kind: 'NAT64', at: 12 },
  { range: cidr('2002::/16'), kind: '6to4', at: 2 },
];
const REFUSED_IPV6: readonly { range: [ipaddr.IPv6, number]; reason: string }[] = [
  { range: cidr('64:ff9b:1::/48'), reason: 'a local-use NAT64 address (64:ff9b:1::/48)' },
  {
    range: cidr('::ffff:0:0:0/96'),
    reason: 'an IPv4-translated (SIIT) address (::ffff:0:0:0/96)',
  },
  { range: cidr('2001::/32'), reason: 'a Teredo address (2001::/32)' },
];

/**
 * Why `address` (an IP literal) must not be called from here, e.g. "a private address", or
 * undefined when it is a public address. The reason may name the address (or the IPv4 address an
 * IPv6 one carries): say it back only about an address the caller wrote, never about a DNS answer.
 */
export function nonPublicReason(address: string): string | undefined {
  const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  // node's parser, not ipaddr.js's: it refuses the octal, hex and short IPv4 forms ipaddr.js reads.
  switch (isIP(plain)) {
    case 4:
      return ipv4Reason(ipaddr.IPv4.parse(plain));
    case 6:
      return ipv6Reason(ipaddr.IPv6.parse(plain));
    default:
      return 'not an IP address';
  }
}

function ipv4Reason(address: ipaddr.IPv4): string | undefined {
  const range = address.range();
  return range === 'unicast' ? undefined : `a ${RANGE_KINDS[range] ?? `reserved (${range})`} address`;
}

function ipv6Reason(address: ipaddr.IPv6): string | undefined {
  for (const carrier of IPV4_CARRIERS) {
    if (address.match(carrier.range)) {
      const bytes = address.toByteArray();
      const inner = new ipaddr.IPv4(bytes.slice(carrier.at, carrier.at + 4));
      const reason = ipv4Reason(inner);
      return reason ? `an ${carrier.kind} form of ${inner.toString()}, ${reason}` : undefined;
    }
  }
  const refused = REFUSED_IPV6.find((candidate) => address.match(candidate.range));
  if (refused) {
    return refused.reason;
  }
  const range = address.range();
  if (range !== 'unicast') {
    return `a ${RANGE_KINDS[range] ?? `reserved (${range})`} address`;
  }
  // E.g. the deprecated IPv4-compatible ::a.b.c.d, or space not allocated yet.
  return address.match(GLOBAL_UNICAST) ? undefined : 'not a global unicast address (2000::/3)';
}

const ORIGIN_PATTERN = /^(https?:)\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?\/?$/i;

/** `http://127.0.0.1:8080, https://hooks.internal` → origins (the setting is validated at start-up). */
export function parseAllowedOrigins(setting: string): AllowedOrigin[] {
  return setting
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map((entry) => {
      const match = ORIGIN_PATTERN.exec(entry);
      if (!match) {
        throw new Error(`not an origin: ${entry}`);
      }
      return {
        protocol: match[1].toLowerCase() as AllowedOrigin['protocol'],
        // The URL parser's spelling of the host, so it compares equal to a parsed target's.
        hostname: new URL(`${match[1]}//${match[2]}`).hostname,
        ...(match[3] ? { port: Number(match[3]) } : {}),
      };
    });
}

/** Answers that mean "no address of this family", not "could not ask". */
const NO_ADDRESS = new Set(['ENODATA', 'ENOTFOUND']);

/**
 * Resolves with c-ares (A and AAAA queries, `dns.Resolver`), not `dns.lookup`: lookup runs
 * getaddrinfo on libuv's small thread pool, which file system and crypto work share, so a few
 * targets whose DNS never answers would stall the whole service. c-ares has its own sockets and
 * timeout. It reads /etc/resolv.conf but not /etc/hosts: `localhost` is handled before (RFC 6761),
 * and an allow-listed internal origin needs a DNS name or an IP literal.
 */
export function dnsResolver(options: { timeoutMs: number; tries?: number; servers?: string[] }): Resolver {
  const tries = options.tries ?? 2;
  // c-ares doubles the timeout on each try: t + 2t + ... stays within the deadline.
  const resolver = new DnsResolver({
    timeout: Math.max(50, Math.floor(options.timeoutMs / (2 ** tries - 1))),
    tries,
  });
  if (options.servers) {
    resolver.setServers(options.servers);
  }
  return async (hostname) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    // c-ares rejects with Errors carrying a code (ENODATA, ENOTFOUND, ETIMEOUT, ...).
    const failures = [v4, v6].flatMap((answer): Error[] =>
      answer.status === 'rejected' ? [answer.reason as Error] : [],
    );
    // A family that failed for another reason (timed out, server failure) might have held an
    // internal address: refuse rather than judge half an answer.
    const unanswered = failures.find((failure) => !NO_ADDRESS.has(errorCode(failure) ?? ''));
    if (unanswered !== undefined) {
      throw unanswered;
    }
    // IPv4 first: the address connected to is the first one, and not every network routes IPv6.
    const addresses: ResolvedAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    if (addresses.length === 0 && failures.length > 0) {
      throw failures.find((failure) => errorCode(failure) === 'ENOTFOUND') ?? failures[0];
    }
    return addresses;
  };
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** `localhost` and `*.localhost` are the machine itself (RFC 6761): answered without DNS. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

const LOCALHOST: readonly ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/**
 * Where webhooks may go (OWASP API7, SSRF): an absolute https URL without credentials whose host
 * resolves only to public addresses, unless its origin is allow-listed by the operator. Checked when
 * a subscription is created and again before every attempt, and the attempt connects to the address
 * checked, so a DNS answer that changes in between (rebinding) cannot reach an internal address.
 * A refusal names what the caller wrote, never what DNS answered, and every answer DNS decides
 * reads the same: the service's resolver sees internal names, and the refusal must not become a
 * way of reading them, or of learning which exist.
 */
export class TargetPolicy {
  private readonly resolve: Resolver;

  constructor(
    private readonly allowed: readonly AllowedOrigin[],
    resolve?: Resolver,
    private readonly resolveTimeoutMs = 5000,
  ) {
    this.resolve = resolve ?? dnsResolver({ timeoutMs: resolveTimeoutMs });
  }

  /** The rules that need no DNS: answers the URL as it will be stored and called. */
  parse(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new TargetRefusedError('url must be an absolute URL, e.g. https://hooks.example.com/platform');
    }
    if (url.username || url.password) {
      throw new TargetRefusedError('url must not carry credentials (user:password@)');
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.isAllowListed(url))) {
      throw new TargetRefusedError(
        `url must use https (${url.protocol.replace(':', '')} is refused unless the origin is allow-listed)`,
      );
    }
    url.hash = '';
    return url;
  }

  /** Every rule, DNS included (after the others: a URL refused anyway is never looked up). */
  async check(raw: string): Promise<CheckedTarget> {
    const url = this.parse(raw);
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const literal = isIP(hostname);
    const allowListed = this.isAllowListed(url);
    if (literal) {
      const reason = allowListed ? undefined : nonPublicReason(hostname);
      if (reason) {
        throw new TargetRefusedError(`url: ${hostname} is ${reason}, not a public address`);
      }
      return { url, address: { address: hostname, family: literal === 6 ? 6 : 4 } };
    }
    if (isLocalhostName(hostname)) {
      if (!allowListed) {
        throw new TargetRefusedError(`url: ${hostname} is a loopback name, not a public address`);
      }
      return { url, address: LOCALHOST[0] };
    }
    const addresses = await this.resolveWithDeadline(hostname);
    if (
      addresses === undefined ||
      addresses.length === 0 ||
      (!allowListed && addresses.some(({ address }) => nonPublicReason(address) !== undefined))
    ) {
      throw new TargetRefusedError(unresolvedOrInternal(hostname));
    }
    return { url, address: addresses[0] };
  }

  private isAllowListed(url: URL): boolean {
    return this.allowed.some(
      (origin) =>
        origin.protocol === url.protocol &&
        origin.hostname === url.hostname &&
        (origin.port === undefined || origin.port === effectivePort(url)),
    );
  }

  /** The name's addresses, or undefined when DNS gave none in time (whatever the reason). */
  private async resolveWithDeadline(hostname: string): Promise<ResolvedAddress[] | undefined> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        this.resolve(hostname),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), this.resolveTimeoutMs);
        }),
      ]);
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The one refusal of a name DNS decided against: not resolving, resolving to nothing, or resolving
 * to an internal address all read alike. Told apart, they answered which internal names exist
 * (an internal name resolves, privately; a made-up one does not) to anyone who may subscribe.
 */
function unresolvedOrInternal(hostname: string): string {
  return `url: ${hostname} does not resolve to public addresses only; webhooks go to public addresses only`;
}

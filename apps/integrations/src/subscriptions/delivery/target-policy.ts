import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

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

interface Range {
  bytes: number[];
  prefix: number;
  cidr: string;
  kind: string;
}

function range(cidr: string, kind: string): Range {
  const [address, prefix] = cidr.split('/') as [string, string];
  return { bytes: bytesOf(address) as number[], prefix: Number(prefix), cidr, kind };
}

// Addresses that are not "somewhere on the internet": the service's own network, the cloud
// metadata endpoint (169.254.169.254), the machine itself. OWASP API7 (SSRF).
const IPV4_RANGES: readonly Range[] = [
  range('0.0.0.0/8', 'unspecified ("this network")'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'shared (carrier-grade NAT)'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'reserved (IETF protocol assignments)'),
  range('192.0.2.0/24', 'documentation'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'reserved (benchmarking)'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved (or broadcast)'),
];

const IPV6_RANGES: readonly Range[] = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('::/96', 'reserved (IPv4-compatible)'),
  range('100::/64', 'reserved (discard-only)'),
  range('2001:db8::/32', 'documentation'),
  range('fc00::/7', 'unique local (private)'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local (private)'),
  range('ff00::/8', 'multicast'),
];

/** IPv6 ranges that carry an IPv4 address: judged by that address. */
const IPV4_CARRIERS: readonly { range: Range; offset: number }[] = [
  { range: range('::ffff:0:0/96', 'IPv4-mapped'), offset: 12 },
  { range: range('64:ff9b::/96', 'NAT64'), offset: 12 },
  { range: range('2002::/16', '6to4'), offset: 2 },
];

function within(bytes: number[], candidate: Range): boolean {
  if (bytes.length !== candidate.bytes.length) {
    return false;
  }
  for (let bit = 0; bit < candidate.prefix; bit += 8) {
    const mask = candidate.prefix - bit >= 8 ? 0xff : (0xff << (8 - (candidate.prefix - bit))) & 0xff;
    if ((bytes[bit / 8] & mask) !== (candidate.bytes[bit / 8] & mask)) {
      return false;
    }
  }
  return true;
}

/**
 * Why `address` (an IP literal) must not be called from here, e.g. "a private address
 * (10.0.0.0/8)", or undefined when it is a public address.
 */
export function nonPublicReason(address: string): string | undefined {
  const bytes = bytesOf(address);
  if (!bytes) {
    return 'not an IP address';
  }
  if (bytes.length === 4) {
    const found = IPV4_RANGES.find((candidate) => within(bytes, candidate));
    return found ? `a ${found.kind} address (${found.cidr})` : undefined;
  }
  for (const carrier of IPV4_CARRIERS) {
    if (within(bytes, carrier.range)) {
      const inner = bytes.slice(carrier.offset, carrier.offset + 4).join('.');
      const reason = nonPublicReason(inner);
      return reason ? `an ${carrier.range.kind} form of ${inner}, ${reason}` : undefined;
    }
  }
  const found = IPV6_RANGES.find((candidate) => within(bytes, candidate));
  return found ? `a ${found.kind} address (${found.cidr})` : undefined;
}

/** The 4 or 16 bytes of an IP literal (IPv6 zone ids ignored), or undefined for anything else. */
function bytesOf(address: string): number[] | undefined {
  const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  switch (isIP(plain)) {
    case 4:
      return plain.split('.').map(Number);
    case 6:
      return ipv6Bytes(plain);
    default:
      return undefined;
  }
}

function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return groups.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
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

async function resolveAll(hostname: string): Promise<ResolvedAddress[]> {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
}

function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/**
 * Where webhooks may go (OWASP API7, SSRF): an absolute https URL without credentials whose host
 * resolves only to public addresses, unless its origin is allow-listed by the operator. Checked when
 * a subscription is created and again before every attempt, and the attempt connects to the address
 * checked, so a DNS answer that changes in between (rebinding) cannot reach an internal address.
 */
export class TargetPolicy {
  constructor(
    private readonly allowed: readonly AllowedOrigin[],
    private readonly resolve: Resolver = resolveAll,
    private readonly resolveTimeoutMs = 5000,
  ) {}

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

  /** Every rule, DNS included; answers the address to connect to. */
  async check(raw: string): Promise<CheckedTarget> {
    const url = this.parse(raw);
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const literal = isIP(hostname);
    const addresses: ResolvedAddress[] = literal
      ? [{ address: hostname, family: literal === 6 ? 6 : 4 }]
      : await this.resolveWithDeadline(hostname);
    if (addresses.length === 0) {
      throw new TargetRefusedError(`url: ${hostname} does not resolve to any address`);
    }
    if (!this.isAllowListed(url)) {
      for (const { address } of addresses) {
        const reason = nonPublicReason(address);
        if (reason) {
          throw new TargetRefusedError(
            literal
              ? `url: ${address} is ${reason}; webhooks go to public addresses only`
              : `url: ${hostname} resolves to ${address}, ${reason}; webhooks go to public addresses only`,
          );
        }
      }
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

  private async resolveWithDeadline(hostname: string): Promise<ResolvedAddress[]> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        this.resolve(hostname),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), this.resolveTimeoutMs);
        }),
      ]);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const why = typeof code === 'string' ? code : error instanceof Error ? error.message : 'failed';
      throw new TargetRefusedError(`url: ${hostname} could not be resolved (${why})`);
    } finally {
      clearTimeout(timer);
    }
  }
}

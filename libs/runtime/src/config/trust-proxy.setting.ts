import { isIP } from 'node:net';
import { Expose, Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';

/** Fastify's `trustProxy`: off, a number of proxy hops, or the addresses/CIDRs of the proxies. */
export type TrustProxy = false | number | string[];

export const TRUST_PROXY_MAX_HOPS = 10;

const UNTRUSTED_MESSAGE =
  `must be false, a hop count between 1 and ${TRUST_PROXY_MAX_HOPS}, ` +
  'or a comma-separated list of the IP addresses or CIDRs of the trusted proxies';
const TRUST_EVERYTHING_MESSAGE =
  'must not trust every address (true, * or a /0 range), because any caller could then choose its own ' +
  `IP with X-Forwarded-For: give a hop count between 1 and ${TRUST_PROXY_MAX_HOPS} or the proxies' IP ` +
  'addresses or CIDRs';

/**
 * Reads a trusted-proxy setting; undefined when the value is not accepted (including the values
 * that trust everything, which `trustsEveryAddress` singles out for a clearer message).
 */
export function parseTrustProxy(raw: string): TrustProxy | undefined {
  const value = raw.trim();
  if (value.toLowerCase() === 'false') {
    return false;
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops >= 1 && hops <= TRUST_PROXY_MAX_HOPS ? hops : undefined;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  return entries.every(isProxyAddress) ? entries : undefined;
}

/** `true`, `*` or a /0 range: every sender would be a proxy, so every X-Forwarded-For believed. */
export function trustsEveryAddress(raw: string): boolean {
  return raw
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .some((entry) => entry === 'true' || entry === '*' || /\/0+$/.test(entry));
}

/** One IPv4/IPv6 address, or a CIDR of them with a prefix narrower than the whole address space. */
function isProxyAddress(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  // A zone id (fe80::1%eth0) passes `isIP` but not Fastify's address parser.
  const version = address.includes('%') ? 0 : isIP(address);
  if (version === 0 || rest.length > 0) {
    return false;
  }
  if (prefix === undefined) {
    return true;
  }
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
  return bits >= 1 && bits <= (version === 4 ? 32 : 128);
}

/**
 * Fastify's `trustProxy` for a setting. A hop count becomes a function of the hop: since 5.12.1,
 * Fastify treats a numeric `trustProxy` as trusting nothing (it cannot tell the nearest hop is a
 * proxy), which would put every client behind the ingress's address. A hop count therefore believes
 * whoever connects; only addresses/CIDRs also check that the sender is one of the proxies.
 */
export function fastifyTrustProxy(
  setting: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

function isTrustProxy(value: unknown): value is TrustProxy {
  return (
    value === false ||
    (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= TRUST_PROXY_MAX_HOPS) ||
    (Array.isArray(value) && value.length > 0 && value.every((entry) => typeof entry === 'string'))
  );
}

/**
 * A trusted-proxy variable, read into Fastify's `trustProxy`. An unaccepted value stays a string and
 * fails with one message naming the variable; trusting everything gets its own message saying why.
 */
export function TrustProxySetting(name: string): PropertyDecorator {
  const decorators = [
    Expose(),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? (parseTrustProxy(value) ?? value) : value,
    ),
    ValidateBy(
      { name: 'isTrustProxy', validator: { validate: isTrustProxy } },
      {
        message: ({ value }) =>
          `${name} ${typeof value === 'string' && trustsEveryAddress(value) ? TRUST_EVERYTHING_MESSAGE : UNTRUSTED_MESSAGE}`,
      },
    ),
  ];
  return (target, key) => {
    for (const decorator of decorators) {
      decorator(target, key);
    }
  };
}

import { nonPublicReason, parseAllowedOrigins, TargetPolicy, type ResolvedAddress } from './target-policy';

describe('nonPublicReason', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped form of 127.0.0.1, a loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped form of 127.0.0.1'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 form of 169.254.169.254'],
    ['2002:0a00:0001::1', '6to4 form of 10.0.0.1'],
    ['fe80::1%eth0', 'link-local'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(nonPublicReason(address)).toContain(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '169.255.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2001:4860::1',
  ])('lets the public address %s through', (address) => {
    expect(nonPublicReason(address)).toBeUndefined();
  });
});

describe('parseAllowedOrigins', () => {
  it('reads origins, with or without a port', () => {
    expect(parseAllowedOrigins(' http://127.0.0.1:8080, https://Hooks.Internal ,http://[::1]')).toEqual([
      { protocol: 'http:', hostname: '127.0.0.1', port: 8080 },
      { protocol: 'https:', hostname: 'hooks.internal' },
      { protocol: 'http:', hostname: '[::1]' },
    ]);
    expect(parseAllowedOrigins('')).toEqual([]);
  });
});

describe('TargetPolicy', () => {
  const dns: Record<string, ResolvedAddress[]> = {
    'hooks.example.com': [{ address: '93.184.216.34', family: 4 }],
    'dual.example.com': [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ],
    'internal.example.com': [{ address: 'fd00::5', family: 6 }],
    localhost: [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ],
  };
  const resolver = (hostname: string) =>
    dns[hostname]
      ? Promise.resolve(dns[hostname])
      : Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
  const policy = new TargetPolicy(parseAllowedOrigins('http://127.0.0.1:8080,http://localhost'), resolver);

  it('accepts a public https URL and answers the address to connect to', async () => {
    const target = await policy.check('https://hooks.example.com/platform?x=1#fragment');

    expect(target.url.href).toBe('https://hooks.example.com/platform?x=1');
    expect(target.address).toEqual({ address: '93.184.216.34', family: 4 });
  });

  it.each([
    ['not a URL', '/relative/path', 'absolute URL'],
    ['credentials', 'https://user:pass@hooks.example.com/', 'credentials'],
    ['a user name alone', 'https://user@hooks.example.com/', 'credentials'],
    ['plain http', 'http://hooks.example.com/', 'https'],
    ['another scheme', 'ftp://hooks.example.com/', 'https'],
    ['an allow-listed host on another port', 'http://127.0.0.1:9090/', 'https'],
    ['a private IP literal', 'https://10.0.0.1/', '10.0.0.1 is a private address'],
    ['the metadata endpoint', 'https://169.254.169.254/latest', 'link-local'],
    ['loopback IPv6', 'https://[::1]/', 'loopback'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/', 'IPv4-mapped form of 127.0.0.1'],
    ['a decimal loopback', 'https://2130706433/', '127.0.0.1 is a loopback'],
    ['a name resolving to loopback', 'https://localhost/', 'localhost resolves to 127.0.0.1'],
    ['a name with one private address among public ones', 'https://dual.example.com/', '10.0.0.7'],
    ['a name resolving to a unique local address', 'https://internal.example.com/', 'unique local'],
    ['a name that does not resolve', 'https://nowhere.invalid/', 'could not be resolved (ENOTFOUND)'],
  ])('refuses %s', async (_case, url, reason) => {
    await expect(policy.check(url)).rejects.toThrow(reason);
  });

  it('lets allow-listed origins through, by port or any port', async () => {
    await expect(policy.check('http://127.0.0.1:8080/hook')).resolves.toMatchObject({
      address: { address: '127.0.0.1' },
    });
    await expect(policy.check('http://localhost:4321/hook')).resolves.toMatchObject({
      address: { address: '127.0.0.1' },
    });
  });

  it('gives up on a resolver that does not answer', async () => {
    const slow = new TargetPolicy([], () => new Promise(() => undefined), 20);

    await expect(slow.check('https://hooks.example.com/')).rejects.toThrow('could not be resolved');
  });
});

import { execFileSync } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { join } from 'node:path';
import ipaddr from 'ipaddr.js';
import {
  dnsResolver,
  nonPublicReason,
  parseAllowedOrigins,
  TargetPolicy,
  type ResolvedAddress,
  type Resolver,
} from './target-policy';

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
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['64:ff9b:1:abcd::808:808', 'local-use NAT64'],
    ['::ffff:0:a00:1', 'IPv4-translated (SIIT)'],
    ['::ffff:0:808:808', 'IPv4-translated (SIIT)'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001::1', 'Teredo'],
    ['::a00:1', 'global unicast'],
    ['100::1', 'discard-only'],
    ['2001:db8::1', 'reserved'],
    ['fec0::1', 'site-local'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
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
    '64:ff9b::808:808',
    '2002:0808:0808::1',
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

/** SUBSCRIPTION_HTTP_ALLOWED_ORIGINS as `npm start` sets it from `env` (tools/local/webhook-origin.mjs). */
function npmStartAllowedOrigins(env: Record<string, string>): string {
  const script = join(__dirname, '../../../../../tools/local/webhook-origin.mjs');
  return execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { localWebhookAllowedOrigins } = await import(${JSON.stringify(script)});
       process.stdout.write(localWebhookAllowedOrigins(JSON.parse(process.argv[1])));`,
      JSON.stringify(env),
    ],
    { encoding: 'utf8' },
  );
}

describe("npm start's allow-list (tools/local, issue 33)", () => {
  const unresolvable = () => Promise.reject(new Error('no DNS here'));

  it("lets plain http reach the local webhook receiver's origin and no other port of 127.0.0.1", async () => {
    const policy = new TargetPolicy(parseAllowedOrigins(npmStartAllowedOrigins({})), unresolvable);

    await expect(policy.check('http://127.0.0.1:8787/hooks')).resolves.toMatchObject({
      address: { address: '127.0.0.1' },
    });
    for (const elsewhere of [
      'http://127.0.0.1:54320/', // the embedded PostgreSQL
      'http://127.0.0.1:3000/v1/clients', // main-api
      'http://127.0.0.1/',
    ]) {
      await expect(policy.check(elsewhere)).rejects.toThrow('must use https');
    }
  });

  it("follows the receiver's port (WEBHOOK_RECEIVER_PORT) and keeps an operator's own list", () => {
    expect(npmStartAllowedOrigins({ WEBHOOK_RECEIVER_PORT: '9999' })).toBe('http://127.0.0.1:9999');
    expect(npmStartAllowedOrigins({ SUBSCRIPTION_HTTP_ALLOWED_ORIGINS: 'https://hooks.internal' })).toBe(
      'https://hooks.internal',
    );
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
    'metadata.example.com': [{ address: '169.254.169.254', family: 4 }],
    'nat64.example.com': [{ address: '64:ff9b:1::a00:7', family: 6 }],
    'siit.example.com': [{ address: '::ffff:0:a00:7', family: 6 }],
    'teredo.example.com': [{ address: '2001:0:4136:e378:8000:63bf:3fff:fdd2', family: 6 }],
    'mapped.example.com': [{ address: '::ffff:10.0.0.7', family: 6 }],
  };
  const looked: string[] = [];
  const resolver = (hostname: string) => {
    looked.push(hostname);
    return dns[hostname]
      ? Promise.resolve(dns[hostname])
      : Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
  };
  const policy = new TargetPolicy(
    parseAllowedOrigins('http://127.0.0.1:8080,http://localhost,https://dual.example.com:443'),
    resolver,
  );

  beforeEach(() => {
    looked.length = 0;
  });

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
    ['a private IP literal', 'https://10.0.0.1/', '10.0.0.1 is a private address, not a public address'],
    ['the metadata endpoint', 'https://169.254.169.254/latest', 'link-local'],
    ['loopback IPv6', 'https://[::1]/', 'loopback'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/', 'IPv4-mapped form of 127.0.0.1'],
    ['a local-use NAT64 literal', 'https://[64:ff9b:1::a00:1]/', 'local-use NAT64'],
    ['an IPv4-translated literal', 'https://[::ffff:0:a00:1]/', 'IPv4-translated (SIIT)'],
    ['a Teredo literal', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'Teredo'],
    ['a decimal loopback', 'https://2130706433/', '127.0.0.1 is a loopback'],
    ['localhost', 'https://localhost/', 'localhost is a loopback name, not a public address'],
    ['a name under localhost', 'https://api.localhost./', 'loopback name'],
    [
      'a name that does not resolve',
      'https://nowhere.invalid/',
      'nowhere.invalid does not resolve to public addresses only',
    ],
  ])('refuses %s', async (_case, url, reason) => {
    await expect(policy.check(url)).rejects.toThrow(reason);
  });

  it.each([
    ['a private address among public ones', 'dual', '10.0.0.7'],
    ['a unique local address', 'internal', 'fd00::5'],
    ['the metadata endpoint', 'metadata', '169.254.169.254'],
    ['a local-use NAT64 address', 'nat64', '64:ff9b:1::a00:7'],
    ['an IPv4-translated address', 'siit', '::ffff:0:a00:7'],
    ['a Teredo address', 'teredo', '2001:0:4136'],
    ['an IPv4-mapped private address', 'mapped', '10.0.0.7'],
  ])('refuses a name resolving to %s without saying what it resolved to', async (_case, name, resolved) => {
    const refusal = policy.check(`https://${name}.example.com:8443/hook`).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    const message = (await refusal)?.message ?? '';
    // dual.example.com is allow-listed on https:443 only: on 8443 its rules apply.
    expect(message).toBe(
      `url: ${name}.example.com does not resolve to public addresses only; webhooks go to public addresses only`,
    );
    expect(message).not.toContain(resolved);
    expect(message).not.toMatch(/\d+\.\d+\.\d+\.\d+|[0-9a-f]*:[0-9a-f]*:/i);
  });

  it('refuses a name that does not resolve, resolves to nothing or to an internal address with one message (issue 33)', async () => {
    const answers: Record<string, () => Promise<ResolvedAddress[]>> = {
      'internal.example.com': () => Promise.resolve([{ address: '10.0.0.7', family: 4 }]),
      'made-up.example.com': () =>
        Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' })),
      'empty.example.com': () => Promise.resolve([]),
      'failing.example.com': () =>
        Promise.reject(Object.assign(new Error('server failure'), { code: 'ESERVFAIL' })),
      'silent.example.com': () => new Promise<never>(() => undefined),
    };
    const quick = new TargetPolicy([], (hostname) => answers[hostname](), 20);
    const refusalOf = async (hostname: string) =>
      (await quick.check(`https://${hostname}/hook`).catch((error: Error) => error)) as Error;

    const messages = await Promise.all(Object.keys(answers).map(refusalOf));

    expect(messages.map((error) => error.message.replace(/\S+\.example\.com/, '<name>'))).toEqual(
      Object.keys(answers).map(
        () => 'url: <name> does not resolve to public addresses only; webhooks go to public addresses only',
      ),
    );
  });

  it('checks the scheme and credentials before any DNS look-up', async () => {
    await expect(policy.check('http://hooks.example.com/')).rejects.toThrow('https');
    await expect(policy.check('https://user:pass@hooks.example.com/')).rejects.toThrow('credentials');
    await expect(policy.check('https://10.0.0.1/')).rejects.toThrow('private');
    await expect(policy.check('https://localhost/')).rejects.toThrow('loopback');

    expect(looked).toEqual([]);
  });

  it('lets allow-listed origins through, by port or any port', async () => {
    await expect(policy.check('http://127.0.0.1:8080/hook')).resolves.toMatchObject({
      address: { address: '127.0.0.1' },
    });
    await expect(policy.check('http://localhost:4321/hook')).resolves.toMatchObject({
      address: { address: '127.0.0.1' },
    });
    await expect(policy.check('https://dual.example.com/hook')).resolves.toMatchObject({
      address: { address: '93.184.216.34' },
    });
    expect(looked).toEqual(['dual.example.com']);
  });

  it('gives up on a resolver that does not answer', async () => {
    const slow = new TargetPolicy([], () => new Promise(() => undefined), 20);

    await expect(slow.check('https://hooks.example.com/')).rejects.toThrow(
      'hooks.example.com does not resolve to public addresses only',
    );
  });
});

/**
 * A DNS server on 127.0.0.1 for dnsResolver: answers A and AAAA from `zone`, NXDOMAIN for other
 * names, SERVFAIL for `failing`, and nothing at all for `silent`.
 */
class StubDnsServer {
  private constructor(
    private readonly socket: Socket,
    readonly server: string,
  ) {}

  static async start(
    zone: Record<string, string[]>,
    failing: string[],
    silent: string[],
  ): Promise<StubDnsServer> {
    const socket = createSocket('udp4');
    socket.on('message', (query, peer) => {
      let end = 12;
      const labels: string[] = [];
      while (query[end] !== 0) {
        labels.push(query.subarray(end + 1, end + 1 + query[end]).toString('ascii'));
        end += query[end] + 1;
      }
      const type = query.readUInt16BE(end + 1);
      const question = query.subarray(12, end + 5);
      const name = labels.join('.').toLowerCase();
      if (silent.includes(name)) {
        return;
      }
      const answers = (zone[name] ?? [])
        .map((address) => ipaddr.parse(address))
        .filter((address) =>
          type === 1 ? address.kind() === 'ipv4' : type === 28 && address.kind() === 'ipv6',
        )
        .map((address) => {
          const data = Buffer.from(address.toByteArray());
          const record = Buffer.alloc(12);
          record.writeUInt16BE(0xc00c, 0);
          record.writeUInt16BE(type, 2);
          record.writeUInt16BE(1, 4);
          record.writeUInt32BE(60, 6);
          record.writeUInt16BE(data.length, 10);
          return Buffer.concat([record, data]);
        });
      const rcode = failing.includes(name) && type === 28 ? 2 : zone[name] ? 0 : 3;
      const header = Buffer.alloc(12);
      query.copy(header, 0, 0, 2);
      header.writeUInt16BE(0x8180 | rcode, 2);
      header.writeUInt16BE(1, 4);
      header.writeUInt16BE(rcode === 0 ? answers.length : 0, 6);
      socket.send(
        Buffer.concat([header, question, ...(rcode === 0 ? answers : [])]),
        peer.port,
        peer.address,
      );
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return new StubDnsServer(socket, `127.0.0.1:${socket.address().port}`);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}

describe('dnsResolver (c-ares, off the thread pool)', () => {
  let dnsServer: StubDnsServer;
  let resolve: Resolver;

  beforeAll(async () => {
    dnsServer = await StubDnsServer.start(
      {
        'hooks.example.test': ['93.184.216.34', '2606:2800:220:1::1'],
        'v6only.example.test': ['2606:2800:220:1::2'],
        'internal.example.test': ['10.0.0.7'],
        'half.example.test': ['93.184.216.34'],
      },
      ['half.example.test'],
      ['silent.example.test'],
    );
    resolve = dnsResolver({ timeoutMs: 600, servers: [dnsServer.server] });
  });

  afterAll(() => dnsServer.stop());

  it('answers the A and then the AAAA records of a name', async () => {
    await expect(resolve('hooks.example.test')).resolves.toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    await expect(resolve('v6only.example.test')).resolves.toEqual([
      { address: '2606:2800:220:1::2', family: 6 },
    ]);
  });

  it('refuses a name that does not exist, and one whose AAAA query failed', async () => {
    await expect(resolve('nowhere.example.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolve('half.example.test')).rejects.toMatchObject({ code: 'ESERVFAIL' });
  });

  it('gives up on a server that does not answer, within its own timeout', async () => {
    const started = Date.now();

    await expect(resolve('silent.example.test')).rejects.toMatchObject({ code: 'ETIMEOUT' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('feeds the policy, which names the host and not its address', async () => {
    const policy = new TargetPolicy([], resolve, 1000);

    await expect(policy.check('https://hooks.example.test/')).resolves.toMatchObject({
      address: { address: '93.184.216.34', family: 4 },
    });
    const refusal = await policy.check('https://internal.example.test/').catch((error: Error) => error);
    expect((refusal as Error).message).toContain(
      'internal.example.test does not resolve to public addresses only',
    );
    expect((refusal as Error).message).not.toContain('10.0.0.7');
  });
});

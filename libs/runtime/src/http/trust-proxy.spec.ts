import { Controller, Get, Req } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { probeEnv, probeService } from '../testing/probe-service';

@Controller('ip')
class IpEchoController {
  @Get()
  ip(@Req() request: FastifyRequest): { ip: string } {
    return { ip: request.ip };
  }
}

/** A service with one route, built by `createServiceApp` exactly as the real ones are. */
function serviceWith(trustProxy?: string): Promise<NestFastifyApplication> {
  return probeService(probeEnv({ TRUST_PROXY: trustProxy }), [IpEchoController]);
}

/** The caller's IP as the service sees it, for a connection from `from` carrying `forwardedFor`. */
async function ipSeenBy(app: NestFastifyApplication, from: string, forwardedFor?: string): Promise<string> {
  const response = await app.inject({
    method: 'GET',
    url: '/ip',
    remoteAddress: from,
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ ip: string }>().ip;
}

const CLIENT = '203.0.113.9';
const SPOOFED = '198.51.100.1';

describe('request.ip behind proxies (TRUST_PROXY)', () => {
  let app: NestFastifyApplication;

  afterEach(() => app.close());

  it('is the connection address when unset: a client-sent X-Forwarded-For changes nothing', async () => {
    app = await serviceWith();

    expect(await ipSeenBy(app, CLIENT, SPOOFED)).toBe(CLIENT);
    expect(await ipSeenBy(app, CLIENT, `${SPOOFED}, 10.0.0.1`)).toBe(CLIENT);
  });

  it('is the connection address with TRUST_PROXY=false', async () => {
    app = await serviceWith('false');

    expect(await ipSeenBy(app, CLIENT, SPOOFED)).toBe(CLIENT);
  });

  it('with one hop, is the address the proxy appended, not what the client wrote before it', async () => {
    app = await serviceWith('1');

    // The client sent "X-Forwarded-For: SPOOFED"; the ingress (10.0.0.5) appended the real address.
    expect(await ipSeenBy(app, '10.0.0.5', `${SPOOFED}, ${CLIENT}`)).toBe(CLIENT);
    expect(await ipSeenBy(app, '10.0.0.5')).toBe('10.0.0.5');
  });

  it('with a CIDR list, believes only hops that come from those addresses', async () => {
    app = await serviceWith('10.0.0.0/8, 192.168.7.7');

    // Through the ingress: the last untrusted hop is the client.
    expect(await ipSeenBy(app, '10.1.2.3', `${SPOOFED}, ${CLIENT}`)).toBe(CLIENT);
    // Through two trusted proxies: both are skipped.
    expect(await ipSeenBy(app, '10.1.2.3', `${SPOOFED}, ${CLIENT}, 192.168.7.7`)).toBe(CLIENT);
    // Straight from a caller outside the list: its header is not believed at all.
    expect(await ipSeenBy(app, CLIENT, SPOOFED)).toBe(CLIENT);
    expect(await ipSeenBy(app, '192.168.7.8', SPOOFED)).toBe('192.168.7.8');
  });
});

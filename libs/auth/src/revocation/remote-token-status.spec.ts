import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Principal } from '../principal/principal';
import { RemoteTokenStatus } from './remote-token-status';

const principal: Principal = {
  subject: 'user:1',
  companyId: 1,
  roleId: 1,
  userId: 1,
  tokenId: 'j',
  epoch: 0,
};

describe('RemoteTokenStatus', () => {
  let server: Server;
  let url: string;
  const asked: (string | undefined)[] = [];
  let answer = 204;

  beforeAll(async () => {
    server = createServer((request, response) => {
      asked.push(request.headers.authorization);
      setTimeout(() => response.writeHead(answer).end(), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/oauth/token-status`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  beforeEach(() => {
    asked.length = 0;
    answer = 204;
  });

  it('asks main-api with the token itself: 204 is live, 401 is revoked', async () => {
    const status = new RemoteTokenStatus({ url, timeoutMs: 1000 });

    await expect(status.isRevoked(principal, 'live.token.text')).resolves.toBe(false);
    answer = 401;
    await expect(status.isRevoked(principal, 'revoked.token.text')).resolves.toBe(true);
    expect(asked).toEqual(['Bearer live.token.text', 'Bearer revoked.token.text']);
  });

  it('asks once for concurrent first uses of one token', async () => {
    const status = new RemoteTokenStatus({ url, timeoutMs: 1000 });

    await Promise.all(Array.from({ length: 5 }, () => status.isRevoked(principal, 'same.token.text')));

    expect(asked).toHaveLength(1);
  });

  it('takes tokens as live while main-api cannot answer, and asks again after the back-off', async () => {
    const unreachable = new RemoteTokenStatus({
      url: 'http://127.0.0.1:1/v1/oauth/token-status',
      timeoutMs: 500,
      unreachableBackoffMs: 50,
    });
    const failing = new RemoteTokenStatus({ url, timeoutMs: 1000, unreachableBackoffMs: 50 });
    answer = 500;

    await expect(unreachable.isRevoked(principal, 'a.b.c')).resolves.toBe(false);
    await expect(failing.isRevoked(principal, 'a.b.c')).resolves.toBe(false);
    await expect(failing.isRevoked(principal, 'a.b.d')).resolves.toBe(false);
    expect(asked).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    answer = 401;
    await expect(failing.isRevoked(principal, 'a.b.d')).resolves.toBe(true);
  });
});

import { randomBytes } from 'node:crypto';
import { signChangeOrigin } from '../change-origin/change-origin-signature';
import { serviceSigning, signServiceRequest } from './service-signature';

const key = randomBytes(32).toString('base64');
const path = '/v1/events/watch?after=10%3A12%3A&wait=20';

describe('service signatures', () => {
  it('name the service that signed with the key, for that method, path and query string', () => {
    const header = signServiceRequest(key, 'integrations', 'GET', path);
    expect(serviceSigning(key, header, 'GET', path)).toBe('integrations');
  });

  it('refuse another key, path, query string, method or service', () => {
    const header = signServiceRequest(key, 'integrations', 'GET', path);
    expect(serviceSigning(randomBytes(32).toString('base64'), header, 'GET', path)).toBeUndefined();
    expect(serviceSigning(key, header, 'GET', '/v1/events?after=10%3A12%3A&wait=20')).toBeUndefined();
    expect(serviceSigning(key, header, 'GET', '/v1/events/watch')).toBeUndefined();
    expect(serviceSigning(key, header, 'GET', '/v1/events/watch?after=10%3A12%3A&wait=55')).toBeUndefined();
    expect(serviceSigning(key, header, 'GET', '/v1/events/watch?after=0%3A0%3A&wait=20')).toBeUndefined();
    expect(serviceSigning(key, header, 'GET', `${path}&wait=0`)).toBeUndefined();
    expect(serviceSigning(key, header, 'POST', path)).toBeUndefined();
    expect(serviceSigning(key, header.replace(/^integrations/, 'planner'), 'GET', path)).toBeUndefined();
  });

  it('refuse a signature older or newer than a minute', () => {
    const now = Date.now();
    const old = signServiceRequest(key, 'integrations', 'GET', path, now - 61_000);
    const recent = signServiceRequest(key, 'integrations', 'GET', path, now - 59_000);
    const future = signServiceRequest(key, 'integrations', 'GET', path, now + 61_000);
    expect(serviceSigning(key, old, 'GET', path, now)).toBeUndefined();
    expect(serviceSigning(key, recent, 'GET', path, now)).toBe('integrations');
    expect(serviceSigning(key, future, 'GET', path, now)).toBeUndefined();
  });

  it('refuse malformed headers and change-origin signatures made with the same key', () => {
    for (const header of ['', 'integrations', 'integrations.1.x', `integrations..${'a'.repeat(43)}`]) {
      expect(serviceSigning(key, header, 'GET', path)).toBeUndefined();
    }
    const seconds = String(Math.floor(Date.now() / 1000));
    const changeOrigin = signChangeOrigin(key, 'JIRA', `${seconds}\nGET ${path}`);
    expect(serviceSigning(key, `integrations.${seconds}.${changeOrigin}`, 'GET', path)).toBeUndefined();
  });
});

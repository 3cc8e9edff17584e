import { generateKeyPairSync } from 'node:crypto';
import { DEVICE_COOKIE_LIFETIME_SECONDS, DeviceCookies, deviceCookieHeader } from './device-cookies';

describe('DeviceCookies', () => {
  const keyOf = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const devices = new DeviceCookies(keyOf());
  const now = Date.UTC(2030, 0, 1);

  it('trusts a cookie for the account it was issued for, and gives its nonce', () => {
    const cookie = devices.issue('user:ann@acme.test', now);

    const device = devices.trustedDevice(cookie, 'user:ann@acme.test', now + 1000);

    expect(device).toBe(cookie.split('.')[0]);
    expect(cookie).not.toContain('ann');
  });

  it('trusts no cookie for another account, changed, of another key, expired or missing', () => {
    const cookie = devices.issue('user:ann@acme.test', now);
    const [nonce, issuedAt, mac] = cookie.split('.');
    const changed = (value: string) => value.slice(0, -1) + (value.endsWith('A') ? 'B' : 'A');

    expect(devices.trustedDevice(cookie, 'user:bob@acme.test', now)).toBeUndefined();
    expect(
      devices.trustedDevice(`${changed(nonce)}.${issuedAt}.${mac}`, 'user:ann@acme.test', now),
    ).toBeUndefined();
    expect(
      devices.trustedDevice(`${nonce}.${Number(issuedAt) + 1}.${mac}`, 'user:ann@acme.test', now),
    ).toBeUndefined();
    expect(
      devices.trustedDevice(`${nonce}.${issuedAt}.${changed(mac)}`, 'user:ann@acme.test', now),
    ).toBeUndefined();
    expect(new DeviceCookies(keyOf()).trustedDevice(cookie, 'user:ann@acme.test', now)).toBeUndefined();
    expect(
      devices.trustedDevice(cookie, 'user:ann@acme.test', now + DEVICE_COOKIE_LIFETIME_SECONDS * 1000),
    ).toBeUndefined();
    expect(devices.trustedDevice(undefined, 'user:ann@acme.test', now)).toBeUndefined();
    expect(devices.trustedDevice('junk', 'user:ann@acme.test', now)).toBeUndefined();
  });

  it('is HttpOnly, SameSite=Strict, sent to the sign-in route only, Secure over https', () => {
    expect(deviceCookieHeader('v', true)).toBe(
      'oauth_device=v; Path=/v1/oauth/authorize; Max-Age=15552000; HttpOnly; SameSite=Strict; Secure',
    );
    expect(deviceCookieHeader('v', false)).not.toContain('Secure');
  });
});

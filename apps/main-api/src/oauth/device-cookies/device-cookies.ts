import { createHmac, hkdfSync, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';

/** The cookie's name; one per browser, for the account that signed in last. */
export const DEVICE_COOKIE = 'oauth_device';
/** The sign-in form's route: the only place the browser sends the cookie to. */
export const DEVICE_COOKIE_PATH = '/v1/oauth/authorize';
/** How long a device stays trusted after its last successful sign-in. */
export const DEVICE_COOKIE_LIFETIME_SECONDS = 180 * 24 * 3600;
/** Clocks of replicas may differ a little: an issue time this far ahead still counts. */
const CLOCK_SKEW_SECONDS = 60;
const COOKIE_VALUE = /^([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * OWASP's device cookies ("Slow down online guessing attacks with device cookies"): after a
 * successful sign-in on the sign-in page the browser gets `<nonce>.<issued at>.<HMAC>`, the HMAC
 * under a key only main-api holds over the nonce, the issue time and the account. The account is
 * not in the cookie: a cookie is valid only for the account it was issued for, whose name the
 * attempt itself brings. An attempt with a valid cookie is trusted: exempt from the per-address and
 * per-account lockouts (counted per device nonce instead) and hashed ahead of untrusted attempts. The
 * cookie proves nothing about the password; it only says this browser signed in to this account
 * before. No server-side state beyond the failure counters: any replica checks it.
 */
export class DeviceCookies {
  private readonly key: Buffer;

  /** Derived from the token-signing key, which every replica already shares (as AuthorizeCsrf). */
  constructor(signingKey: KeyObject) {
    const material = signingKey.export({ format: 'der', type: 'pkcs8' });
    this.key = Buffer.from(hkdfSync('sha256', material, '', 'main-api oauth device cookie v1', 32));
  }

  /** A new cookie value for `account`, after it signed in from this browser. */
  issue(account: string, now = Date.now()): string {
    const nonce = randomBytes(16).toString('base64url');
    const issuedAt = Math.floor(now / 1000);
    return `${nonce}.${issuedAt}.${this.mac(nonce, issuedAt, account)}`;
  }

  /** The device's nonce when `presented` is a valid, unexpired cookie issued for `account`. */
  trustedDevice(presented: string | undefined, account: string, now = Date.now()): string | undefined {
    const parts = presented === undefined ? null : COOKIE_VALUE.exec(presented);
    if (!parts) {
      return undefined;
    }
    const [, nonce, issuedAtText, mac] = parts;
    const issuedAt = Number(issuedAtText);
    const age = Math.floor(now / 1000) - issuedAt;
    if (age < -CLOCK_SKEW_SECONDS || age >= DEVICE_COOKIE_LIFETIME_SECONDS) {
      return undefined;
    }
    const expected = Buffer.from(this.mac(nonce, issuedAt, account));
    const actual = Buffer.from(mac);
    return expected.length === actual.length && timingSafeEqual(expected, actual) ? nonce : undefined;
  }

  private mac(nonce: string, issuedAt: number, account: string): string {
    return createHmac('sha256', this.key).update(`${nonce}.${issuedAt}.${account}`).digest('base64url');
  }
}

/**
 * The Set-Cookie of the device cookie: HttpOnly, SameSite=Strict (only the page's own form sends it),
 * sent to the sign-in route only, Secure whenever the page came over https, as the CSRF cookie.
 */
export function deviceCookieHeader(value: string, secure: boolean): string {
  return `${DEVICE_COOKIE}=${value}; Path=${DEVICE_COOKIE_PATH}; Max-Age=${DEVICE_COOKIE_LIFETIME_SECONDS}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';

/** The cookie half of the double submit. */
export const CSRF_COOKIE = 'oauth_authorize_csrf';
/** How long a login form may stay open before it must be reloaded. */
const FORM_LIFETIME_SECONDS = 15 * 60;
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** What the form is about: the same fields must come back, or the token does not match. */
export interface CsrfBinding {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state?: string;
}

/**
 * CSRF protection of the login form: a signed double-submit token (OWASP's "signed double-submit
 * cookie"). The browser holds a random value in an HttpOnly, SameSite=Strict cookie; the form's
 * hidden field carries an HMAC, under a key only main-api holds, of that value, the authorization
 * request the form is for, and an expiry. A cross-site POST carries no cookie (SameSite=Strict), a
 * forged field cannot match a cookie the attacker cannot read, and a cookie planted from a sibling
 * domain cannot be paired with a field without the key. No server-side session: any replica checks it.
 */
export class AuthorizeCsrf {
  private readonly key: Buffer;

  /** The key is derived from the token-signing key, which every replica already shares. */
  constructor(signingKey: KeyObject) {
    const material = signingKey.export({ format: 'der', type: 'pkcs8' });
    this.key = Buffer.from(hkdfSync('sha256', material, '', 'main-api oauth authorize csrf v1', 32));
  }

  /** The browser's cookie value if it has a well-formed one, else a new one to set. */
  cookieValue(presented: string | undefined): { value: string; isNew: boolean } {
    return presented !== undefined && COOKIE_VALUE.test(presented)
      ? { value: presented, isNew: false }
      : { value: randomBytes(32).toString('base64url'), isNew: true };
  }

  /** The hidden field's value for this cookie and request. */
  tokenFor(cookie: string, binding: CsrfBinding, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + FORM_LIFETIME_SECONDS;
    return `${expires}.${this.mac(cookie, binding, expires)}`;
  }

  matches(
    cookie: string | undefined,
    token: string | undefined,
    binding: CsrfBinding,
    now = Date.now(),
  ): boolean {
    if (cookie === undefined || token === undefined || !COOKIE_VALUE.test(cookie)) {
      return false;
    }
    const [expiresText, mac, ...rest] = token.split('.');
    const expires = Number(expiresText);
    if (rest.length > 0 || mac === undefined || !Number.isSafeInteger(expires) || expires * 1000 <= now) {
      return false;
    }
    const expected = Buffer.from(this.mac(cookie, binding, expires));
    const actual = Buffer.from(mac);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  private mac(cookie: string, binding: CsrfBinding, expires: number): string {
    const request = createHash('sha256')
      .update(
        JSON.stringify([binding.clientId, binding.redirectUri, binding.codeChallenge, binding.state ?? null]),
      )
      .digest('base64url');
    return createHmac('sha256', this.key).update(`${cookie}.${request}.${expires}`).digest('base64url');
  }
}

/** One cookie of a `Cookie` header (no cookie library needed for one name). */
export function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) {
      return part.slice(separator + 1).trim();
    }
  }
  return undefined;
}

/** The Set-Cookie of the CSRF cookie: HttpOnly, SameSite=Strict, Secure whenever the page came over https. */
export function csrfCookieHeader(value: string, secure: boolean): string {
  return `${CSRF_COOKIE}=${value}; Path=/; Max-Age=86400; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

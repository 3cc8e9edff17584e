import { Inject, Injectable } from '@nestjs/common';
import { MAIN_API_ENV, type MainApiEnv } from '../../config/main-api.env';
import { PasswordHashingBusyError } from '../../security/password-hashing';
import { CredentialsService } from '../credentials.service';
import { DeviceCookies, deviceCookieHeader } from '../device-cookies/device-cookies';
import { LoginThrottle, LoginThrottledError, type LoginAttempt } from '../rate-limit/login-throttle';
import { AuthorizationCodes } from './authorization-codes.service';
import { checkAuthorizationRequest, type AuthorizationRequest } from './authorization-request';
import { AuthorizeCsrf, csrfCookieHeader, type CsrfBinding } from './authorize-csrf';
import type { LoginForm } from './login-page';
import { OAuthAppsRepository } from './oauth-apps.repository';
import { withResponseParameters } from './redirect-uris';

export const WRONG_CREDENTIALS = 'E-mail or password is wrong.';

/** What a browser sends to `/oauth/authorize`, as the controller reads it. */
export interface AuthorizeCall {
  parameters: Record<string, unknown>;
  /** The CSRF cookie the browser sent, if any. */
  csrfCookie: string | undefined;
  /** The device cookie the browser sent, if any (DeviceCookies). */
  deviceCookie: string | undefined;
  /** The page came over https: the cookie is then Secure. */
  secure: boolean;
  ip: string;
}

/** What to answer: a page (HTML) or a redirect to the app. */
export type AuthorizeOutcome =
  | {
      kind: 'redirect';
      location: string;
      /** After a sign-in: a new device cookie for the account. */
      setCookie?: string;
    }
  | { kind: 'error-page'; status: number; message: string }
  | {
      kind: 'login-page';
      status: number;
      form: LoginForm;
      /** The app's origin, where the form's answer redirects (CSP form-action). */
      redirectOrigin: string;
      setCookie?: string;
      retryAfterSeconds?: number;
    };

type LoginPage = Extract<AuthorizeOutcome, { kind: 'login-page' }>;

/**
 * The login page of the authorization-code flow: checks the authorization request, shows the form,
 * checks the CSRF token, the throttle and the password, and redirects with a code.
 */
@Injectable()
export class AuthorizationService {
  constructor(
    private readonly apps: OAuthAppsRepository,
    private readonly codes: AuthorizationCodes,
    private readonly credentials: CredentialsService,
    private readonly throttle: LoginThrottle,
    @Inject(AuthorizeCsrf) private readonly csrf: AuthorizeCsrf,
    @Inject(DeviceCookies) private readonly devices: DeviceCookies,
    @Inject(MAIN_API_ENV) private readonly env: MainApiEnv,
  ) {}

  /**
   * The redirect to the app with the response's parameters and `iss` (RFC 9207), so an app that
   * talks to several authorization servers can tell which one answered (mix-up attacks).
   */
  private responseTo(redirectUri: string, parameters: Record<string, string | undefined>): string {
    return withResponseParameters(redirectUri, { ...parameters, iss: this.env.JWT_ISSUER });
  }

  /** GET: the form, or a refusal. */
  async show(call: AuthorizeCall): Promise<AuthorizeOutcome> {
    const checked = await checkAuthorizationRequest(call.parameters, (clientId) =>
      this.apps.findActive(clientId),
    );
    switch (checked.kind) {
      case 'refused':
        return { kind: 'error-page', status: 400, message: checked.message };
      case 'redirect-error':
        return {
          kind: 'redirect',
          location: this.responseTo(checked.redirectUri, {
            error: checked.error,
            error_description: checked.description,
            state: checked.state,
          }),
        };
      case 'valid':
        return this.form(call, checked.request, 200);
    }
  }

  /** POST: the credentials of the form. */
  async signIn(call: AuthorizeCall): Promise<AuthorizeOutcome> {
    const checked = await checkAuthorizationRequest(call.parameters, (clientId) =>
      this.apps.findActive(clientId),
    );
    if (checked.kind !== 'valid') {
      return this.show(call);
    }
    const { request } = checked;
    const email = stringField(call.parameters, 'email')?.trim();
    const password = stringField(call.parameters, 'password');
    if (!this.csrf.matches(call.csrfCookie, stringField(call.parameters, 'csrf_token'), bindingOf(request))) {
      return this.form(call, request, 403, {
        email,
        message: 'This form has expired or was not sent from this page. Please sign in again.',
      });
    }
    if (!email || !password) {
      return this.form(call, request, 400, { email, message: 'Enter your e-mail and your password.' });
    }
    // Shared with the password grant: one budget of guesses per account and IP, whichever way in,
    // unless this browser signed in to the account before (then it has a budget of its own).
    const account = `user:${email.toLowerCase()}`;
    const attempt: LoginAttempt = {
      ip: call.ip,
      account,
      device: this.devices.trustedDevice(call.deviceCookie, account),
    };
    try {
      await this.throttle.assertNotBlocked(attempt);
      const user =
        email.length <= 254 && password.length <= 200
          ? await this.throttle.checkPassword(attempt, (queue) =>
              this.credentials.userFor(email, password, queue),
            )
          : undefined;
      // A user of another company signs in through that company's apps only; told apart from a
      // wrong password by nothing.
      if (!user || user.companyId !== request.app.companyId) {
        const retryAfter = await this.throttle.recordFailure(attempt);
        if (retryAfter > 0) {
          throw new LoginThrottledError(retryAfter);
        }
        return this.form(call, request, 401, { email, message: WRONG_CREDENTIALS });
      }
      await this.throttle.recordSuccess(attempt);
      const code = await this.codes.issue({
        appId: request.app.id,
        companyId: user.companyId,
        userId: user.id,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge,
      });
      return {
        kind: 'redirect',
        location: this.responseTo(request.redirectUri, { code, state: request.state }),
        setCookie: deviceCookieHeader(this.devices.issue(account), call.secure),
      };
    } catch (error) {
      if (error instanceof LoginThrottledError) {
        const seconds = retryAfterOf(error);
        return {
          ...this.form(call, request, 429, {
            email,
            message: `Too many failed sign-in attempts. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
          }),
          retryAfterSeconds: seconds,
        };
      }
      if (error instanceof PasswordHashingBusyError) {
        return {
          ...this.form(call, request, 503, {
            email,
            message: 'Too many sign-ins are being checked right now. Try again in a moment.',
          }),
          retryAfterSeconds: 1,
        };
      }
      throw error;
    }
  }

  private form(
    call: AuthorizeCall,
    request: AuthorizationRequest,
    status: number,
    shown: { email?: string; message?: string } = {},
  ): LoginPage {
    const cookie = this.csrf.cookieValue(call.csrfCookie);
    return {
      kind: 'login-page',
      status,
      form: {
        appName: request.app.name,
        email: shown.email,
        message: shown.message,
        hidden: {
          response_type: 'code',
          client_id: request.app.clientId,
          redirect_uri: request.redirectUri,
          code_challenge: request.codeChallenge,
          code_challenge_method: 'S256',
          state: request.state,
          csrf_token: this.csrf.tokenFor(cookie.value, bindingOf(request)),
        },
      },
      redirectOrigin: new URL(request.redirectUri).origin,
      ...(cookie.isNew ? { setCookie: csrfCookieHeader(cookie.value, call.secure) } : {}),
    };
  }
}

function bindingOf(request: AuthorizationRequest): CsrfBinding {
  return {
    clientId: request.app.clientId,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    state: request.state,
  };
}

function stringField(parameters: Record<string, unknown>, name: string): string | undefined {
  const value = parameters[name];
  return typeof value === 'string' ? value : undefined;
}

function retryAfterOf(error: LoginThrottledError): number {
  const response = error.getResponse() as { retryAfterSeconds?: number };
  return Math.max(1, response.retryAfterSeconds ?? 1);
}

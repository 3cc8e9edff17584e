import { randomBytes } from 'node:crypto';
import { Body, Controller, Get, Headers, Ip, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiForbiddenResponse,
  ApiFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  ApiBadRequestResponse,
} from '@nestjs/swagger';
import { Public } from '@platform/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_COOKIE } from '../device-cookies/device-cookies';
import { AuthorizationService, type AuthorizeCall, type AuthorizeOutcome } from './authorization.service';
import { CSRF_COOKIE, cookieOf } from './authorize-csrf';
import { errorPage, loginPage } from './login-page';

const HTML = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' as const } } },
});
const REDIRECT = {
  description:
    'To the redirect_uri: with `code`, `state` and `iss` (RFC 9207: JWT_ISSUER) after a successful sign-in, or with `error`, `error_description`, `state` and `iss` (RFC 6749 §4.1.2.1)',
  headers: { Location: { schema: { type: 'string' as const } } },
};
const REQUEST_FIELDS = {
  response_type: { type: 'string', enum: ['code'] },
  client_id: { type: 'string', description: 'The app’s client_id (`npm run provision -- --add-app`)' },
  redirect_uri: { type: 'string', description: 'Exactly one of the app’s registered redirect URIs' },
  code_challenge: { type: 'string', description: 'BASE64URL(SHA-256(code_verifier)), 43 characters' },
  code_challenge_method: { type: 'string', enum: ['S256'] },
  state: { type: 'string', description: 'Returned unchanged with the code or the error' },
};

/**
 * The authorization endpoint of the code + PKCE flow (RFC 6749 §4.1, RFC 7636) for browser apps:
 * a server-rendered sign-in page. Answers HTML or redirects, never JSON.
 */
@ApiTags('oauth')
@Public()
@Controller('oauth')
export class AuthorizationController {
  constructor(private readonly authorization: AuthorizationService) {}

  @Get('authorize')
  @ApiOperation({
    summary: 'Sign-in page of the authorization-code flow with PKCE (S256 only)',
    description:
      'For registered public clients (browser apps). An unknown client_id or a redirect_uri not registered for it is answered with an error page, never redirected; other invalid requests redirect to the redirect_uri with `error` and `state`. scope is accepted and ignored: access follows the user’s role.',
  })
  @ApiProduces('text/html')
  @ApiQuery({ name: 'response_type', required: true, enum: ['code'] })
  @ApiQuery({ name: 'client_id', required: true, type: String })
  @ApiQuery({ name: 'redirect_uri', required: true, type: String })
  @ApiQuery({ name: 'code_challenge', required: true, type: String })
  @ApiQuery({ name: 'code_challenge_method', required: true, enum: ['S256'] })
  @ApiQuery({ name: 'state', required: false, type: String })
  @ApiQuery({ name: 'scope', required: false, type: String, description: 'Ignored' })
  @ApiOkResponse(HTML('The sign-in form'))
  @ApiFoundResponse(REDIRECT)
  @ApiBadRequestResponse(HTML('Unknown client_id or unregistered redirect_uri: an error page'))
  async show(
    @Query() query: Record<string, unknown>,
    @Headers('cookie') cookies: string | undefined,
    @Ip() ip: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    send(reply, await this.authorization.show(callOf(query, cookies, ip, request)));
  }

  @Post('authorize')
  @ApiOperation({
    summary: 'Submit the sign-in form (e-mail, password, CSRF token)',
    description:
      'Posted by the sign-in page itself, with the authorization request in hidden fields, a CSRF token and its SameSite=Strict cookie. A successful sign-in also sets a device cookie (`oauth_device`, HttpOnly, SameSite=Strict, bound to the account): later attempts for that account from this browser are exempt from the account lockout and checked ahead of others (OWASP device cookies). Failures answer the page again with the message: 401 wrong e-mail or password, 403 CSRF token missing or wrong, 429 too many failures (Retry-After), 503 too many sign-ins being checked (Retry-After).',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    schema: {
      type: 'object',
      required: [
        ...Object.keys(REQUEST_FIELDS).filter((name) => name !== 'state'),
        'csrf_token',
        'email',
        'password',
      ],
      properties: {
        ...REQUEST_FIELDS,
        csrf_token: { type: 'string', description: 'From the form' },
        email: { type: 'string' },
        password: { type: 'string', format: 'password' },
      },
    },
  })
  @ApiProduces('text/html')
  @ApiFoundResponse(REDIRECT)
  @ApiBadRequestResponse(HTML('Missing fields, or an unknown client / unregistered redirect_uri'))
  @ApiUnauthorizedResponse(HTML('The page again: “E-mail or password is wrong.”'))
  @ApiForbiddenResponse(HTML('The page again: the CSRF token is missing, expired or wrong'))
  @ApiTooManyRequestsResponse(HTML('The page again: too many failed sign-ins; see Retry-After'))
  @ApiServiceUnavailableResponse(HTML('The page again: too many passwords being checked; see Retry-After'))
  async signIn(
    @Body() body: Record<string, unknown> | undefined,
    @Headers('cookie') cookies: string | undefined,
    @Ip() ip: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    send(reply, await this.authorization.signIn(callOf(body ?? {}, cookies, ip, request)));
  }
}

function callOf(
  parameters: Record<string, unknown>,
  cookies: string | undefined,
  ip: string,
  request: FastifyRequest,
): AuthorizeCall {
  return {
    parameters,
    csrfCookie: cookieOf(cookies, CSRF_COOKIE),
    deviceCookie: cookieOf(cookies, DEVICE_COOKIE),
    secure: request.protocol === 'https',
    ip,
  };
}

/**
 * Pages are never cached, never framed, and may load nothing: no script at all, one inline style
 * allowed by a nonce. form-action names the app's origin as well, because the form's answer
 * redirects there and browsers apply form-action to that redirect too.
 */
function send(reply: FastifyReply, outcome: AuthorizeOutcome): void {
  void reply
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
  if (outcome.kind === 'redirect') {
    if (outcome.setCookie !== undefined) {
      void reply.header('set-cookie', outcome.setCookie);
    }
    void reply.status(302).header('location', outcome.location).send();
    return;
  }
  const nonce = randomBytes(16).toString('base64');
  const formAction = outcome.kind === 'login-page' ? `'self' ${outcome.redirectOrigin}` : "'none'";
  void reply
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'nonce-${nonce}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .header('content-type', 'text/html; charset=utf-8');
  if (outcome.kind === 'error-page') {
    void reply.status(outcome.status).send(errorPage(outcome.message, nonce));
    return;
  }
  if (outcome.setCookie !== undefined) {
    void reply.header('set-cookie', outcome.setCookie);
  }
  if (outcome.retryAfterSeconds !== undefined) {
    void reply.header('retry-after', String(outcome.retryAfterSeconds));
  }
  void reply.status(outcome.status).send(loginPage(outcome.form, nonce));
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why `uri` cannot be registered as a redirect URI, or undefined when it can: absolute, no fragment
 * (RFC 6749 §3.1.2), https, or http only on a loopback host (a developer's machine, RFC 8252 §7.3).
 */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL`;
  }
  if (uri.length > 2000) {
    return 'a redirect URI has at most 2000 characters';
  }
  if (url.hash !== '' || uri.includes('#')) {
    return `${uri} must not contain a fragment`;
  }
  if (url.username !== '' || url.password !== '') {
    return `${uri} must not contain credentials`;
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    return undefined;
  }
  return `${uri} must use https (http only on localhost or 127.0.0.1)`;
}

/** The redirect URI with the authorization response's parameters added to its query (RFC 6749 §4.1.2). */
export function withResponseParameters(
  redirectUri: string,
  parameters: Record<string, string | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined) {
      url.searchParams.append(name, value);
    }
  }
  return url.toString();
}

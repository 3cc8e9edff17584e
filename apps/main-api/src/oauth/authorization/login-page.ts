/** Everything a page shows that came from a request or the database goes through here. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`=]/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The fields the form sends back, so the POST carries the authorization request again. */
export interface LoginForm {
  appName: string;
  hidden: Record<string, string | undefined>;
  email?: string;
  /** Shown in an alert above the form (wrong credentials, throttled, expired form). */
  message?: string;
}

export interface RenderedPage {
  html: string;
  /** A nonce for the page's one inline style element (CSP `style-src 'nonce-…'`). */
  nonce: string;
}

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; padding: 2rem 1rem; background: #f5f5f5; color: #1a1a1a; }
  main { max-width: 22rem; margin: 0 auto; background: #fff; padding: 1.5rem; border-radius: 8px; border: 1px solid #ccc; }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; }
  label { display: block; margin: 1rem 0 0.25rem; font-weight: 600; }
  input { width: 100%; box-sizing: border-box; padding: 0.5rem; font: inherit; border: 1px solid #666; border-radius: 4px; }
  input:focus, button:focus { outline: 3px solid #1a5fb4; outline-offset: 2px; }
  button { margin-top: 1.5rem; width: 100%; padding: 0.6rem; font: inherit; font-weight: 600; color: #fff; background: #1a5fb4; border: 0; border-radius: 4px; cursor: pointer; }
  [role="alert"] { margin: 0 0 1rem; padding: 0.75rem; background: #fdecea; border: 1px solid #b00020; border-radius: 4px; color: #7a0016; }
`;

function page(title: string, nonce: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style nonce="${escapeHtml(nonce)}">${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The sign-in form; works without JavaScript (there is none). */
export function loginPage(form: LoginForm, nonce: string): string {
  const hidden = Object.entries(form.hidden)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const alert =
    form.message === undefined ? '' : `<p role="alert" id="form-error">${escapeHtml(form.message)}</p>\n`;
  const describedBy = form.message === undefined ? '' : ' aria-describedby="form-error"';
  return page(
    `Sign in to ${form.appName}`,
    nonce,
    `<h1>Sign in to ${escapeHtml(form.appName)}</h1>
${alert}<form method="post" action="authorize">
${hidden}
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${escapeHtml(form.email ?? '')}"${describedBy}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="200"${describedBy}>
<button type="submit">Sign in</button>
</form>`,
  );
}

/** A refusal that must not be redirected (unknown client, unregistered redirect URI). */
export function errorPage(message: string, nonce: string): string {
  return page(
    'Sign-in request refused',
    nonce,
    `<h1>This sign-in request cannot be completed</h1>
<p role="alert">${escapeHtml(message)}</p>
<p>Go back to the application and try again; if this persists, tell its developers.</p>`,
  );
}

import type { AttachmentSource } from './task-attachment.entity';

/**
 * Where an attachment opens. main-api stores no file bytes (docs/security.md: attachment URLs are
 * stored, never fetched), so the only place a file can be opened is its own store: an attachment's
 * `url` is the store's link to the file. The client sends either that link (what each store's file
 * picker hands out: Drive's `webViewLink`, a Dropbox shared link, OneDrive's `webUrl`) or the store's
 * own reference to the file, from which the store's web address is built here:
 *
 * | source       | reference                          | url                                               |
 * |--------------|------------------------------------|---------------------------------------------------|
 * | google_drive | a Drive file id                    | https://drive.google.com/file/d/{id}/view         |
 * | dropbox      | a path in the Dropbox, `/a/b.pdf`  | https://www.dropbox.com/home/a?preview=b.pdf      |
 * | onedrive     | a personal OneDrive item id `…!n`  | https://onedrive.live.com/redir?resid={id}        |
 *
 * These open the file for someone the store lets see it, like the picker's links. A reference of
 * another shape (a bare file name, a Dropbox `id:`, a OneDrive for Business id) would give a link that
 * opens nothing, so it is refused when the attachment is made (`referenceProblem`).
 */
export function attachmentUrl(source: AttachmentSource, filename: string): string {
  const link = webLink(filename);
  if (link) {
    return link;
  }
  switch (source) {
    case 'google_drive':
      return `https://drive.google.com/file/d/${encodeURIComponent(filename)}/view`;
    case 'dropbox': {
      const path = filename.startsWith('/') ? filename : `/${filename}`;
      const slash = path.lastIndexOf('/');
      const folder = path.slice(0, slash).split('/').map(encodeURIComponent).join('/');
      return `https://www.dropbox.com/home${folder}?preview=${encodeURIComponent(path.slice(slash + 1))}`;
    }
    case 'onedrive':
      return `https://onedrive.live.com/redir?resid=${encodeURIComponent(filename)}`;
  }
}

/** References each store's link above can open. */
const REFERENCES: Readonly<Record<AttachmentSource, { pattern: RegExp; expected: string }>> = {
  google_drive: { pattern: /^[A-Za-z0-9_-]{10,200}$/, expected: 'a Drive file id' },
  // No empty segment, no trailing slash, no control characters: a file's path, not a folder's.
  dropbox: { pattern: /^(\/[^/\p{Cc}]+)+$/u, expected: 'a Dropbox file path starting with /' },
  onedrive: { pattern: /^[0-9A-Fa-f]{1,16}![A-Za-z0-9._-]{1,200}$/, expected: 'a OneDrive item id' },
};

/** Why `filename` cannot become a usable link for `source`; undefined when it can. */
export function referenceProblem(source: AttachmentSource, filename: string): string | undefined {
  if (/^https?:/i.test(filename)) {
    return webLink(filename) ? undefined : 'filename must be a valid http(s) URL without credentials';
  }
  const { pattern, expected } = REFERENCES[source];
  return pattern.test(filename)
    ? undefined
    : `filename must be the file's link (an http(s) URL) or ${expected}`;
}

/**
 * The link as an RFC 3986 URI (what `format: uri` promises), or undefined when it is no http(s) URL
 * or carries credentials. WHATWG's serialisation leaves characters RFC 3986 does not allow in a path,
 * query or fragment (`|`, `^`, `[`, a second `#`, a stray `%`): those are percent-encoded too.
 */
function webLink(value: string): string | undefined {
  if (!/^https?:\/\//i.test(value)) {
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '') {
    return undefined;
  }
  const rest = (part: string) =>
    part
      .replace(/%(?![0-9A-Fa-f]{2})/g, '%25')
      .replace(/[^A-Za-z0-9\-._~:/?@!$&'()*+,;=%]/g, (character) => encodeURIComponent(character));
  const fragment = url.hash === '' ? '' : `#${rest(url.hash.slice(1))}`;
  return `${url.protocol}//${url.host}${rest(url.pathname + url.search)}${fragment}`;
}

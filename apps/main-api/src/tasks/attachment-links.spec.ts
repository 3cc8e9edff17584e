import { attachmentUrl, referenceProblem } from './attachment-links';

// The entity's list, without loading the entities (their relations import each other).
const ATTACHMENT_SOURCES = ['google_drive', 'dropbox', 'onedrive'] as const;

/**
 * RFC 3986 `URI` for http(s) with a registered-name host, as `format: uri` validators read it:
 * only unreserved, sub-delims, `:@/?` and well-formed percent-encodings, one `#`.
 */
const PCHARS = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*";
const RFC_3986_HTTP_URI = new RegExp(`^https?://[A-Za-z0-9\\-.]+(?::\\d+)?${PCHARS}(?:#${PCHARS})?$`);
const validUri = (value: string) => RFC_3986_HTTP_URI.test(value);

describe('attachment links', () => {
  it.each([
    [
      'google_drive',
      '1dandXB0QZpjeGQq_56wTXKNwaqgsOa9D',
      'https://drive.google.com/file/d/1dandXB0QZpjeGQq_56wTXKNwaqgsOa9D/view',
    ],
    [
      'dropbox',
      '/Homework/math/Prime_Numbers.txt',
      'https://www.dropbox.com/home/Homework/math?preview=Prime_Numbers.txt',
    ],
    ['dropbox', '/moodboard.pdf', 'https://www.dropbox.com/home?preview=moodboard.pdf'],
    [
      'dropbox',
      '/Team files/Mood board #2.pdf',
      'https://www.dropbox.com/home/Team%20files?preview=Mood%20board%20%232.pdf',
    ],
    ['onedrive', '7ED6275F2340188C!116', 'https://onedrive.live.com/redir?resid=7ED6275F2340188C!116'],
  ] as const)('opens a %s reference %s in its store', (source, reference, url) => {
    expect(referenceProblem(source, reference)).toBeUndefined();
    expect(attachmentUrl(source, reference)).toBe(url);
    expect(validUri(url)).toBe(true);
  });

  it.each(ATTACHMENT_SOURCES)('answers a link sent for %s as it was sent', (source) => {
    const link = 'https://www.dropbox.com/scl/fi/abc/file.jpg?rlkey=xyz&dl=0';

    expect(referenceProblem(source, link)).toBeUndefined();
    expect(attachmentUrl(source, link)).toBe(link);
  });

  it.each([
    'https://files.example/a b|c^d[e]/%zz?q=1 2#frag#ment',
    'https://ÄÖ.example/ñ',
    'HTTP://EXAMPLE.COM',
  ])('answers %s as an RFC 3986 URI', (link) => {
    expect(referenceProblem('google_drive', link)).toBeUndefined();
    expect(validUri(attachmentUrl('google_drive', link))).toBe(true);
  });

  it.each([
    ['google_drive', 'moodboard.pdf'],
    ['google_drive', 'abc'],
    ['dropbox', 'moodboard.pdf'],
    ['dropbox', '/folder/'],
    ['dropbox', 'id:a4ayc_80_OEAAAAAAAAAXw'],
    ['onedrive', '01BYE5RZ6QN3ZWBTUFOFD3GSPGOHDJD36K'],
    ['onedrive', 'report.docx'],
    ['google_drive', 'javascript:alert(1)'],
    ['google_drive', 'ftp://files.example/a.pdf'],
    ['google_drive', 'https://'],
    ['google_drive', 'https://user:secret@files.example/a.pdf'],
  ] as const)('refuses a %s filename %s that would open nothing', (source, filename) => {
    expect(referenceProblem(source, filename)).toMatch(/^filename must be/);
  });

  it('still answers a usable URI for a reference stored before the rule', () => {
    for (const source of ATTACHMENT_SOURCES) {
      expect(validUri(attachmentUrl(source, 'old name (1).pdf'))).toBe(true);
    }
  });
});

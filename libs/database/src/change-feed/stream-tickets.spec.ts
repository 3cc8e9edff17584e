import {
  hashOfStreamTicket,
  newStreamTicket,
  openSealedToken,
  sealToken,
  STREAM_TICKET_PATTERN,
} from './stream-tickets';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyOjcifQ.c2lnbmF0dXJl';

describe('stream tickets', () => {
  it('are 32 random bytes in the URL, and only their SHA-256 is stored', () => {
    const ticket = newStreamTicket();
    expect(ticket).toMatch(STREAM_TICKET_PATTERN);
    expect(Buffer.from(ticket, 'base64url')).toHaveLength(32);
    expect(hashOfStreamTicket(ticket)).toMatch(/^[0-9a-f]{64}$/);
    expect(newStreamTicket()).not.toBe(ticket);
  });

  it('seal the token so that only their own ticket opens it, unaltered', () => {
    const ticket = newStreamTicket();
    const sealed = sealToken(ticket, TOKEN);
    expect(sealed.ciphertext.toString('utf8')).not.toContain('eyJ');
    expect(sealed.iv).toHaveLength(12);
    expect(sealed.tag).toHaveLength(16);
    expect(openSealedToken(ticket, sealed)).toBe(TOKEN);

    expect(openSealedToken(newStreamTicket(), sealed)).toBeUndefined();
    const flipped = Buffer.from(sealed.ciphertext);
    flipped[0] ^= 1;
    expect(openSealedToken(ticket, { ...sealed, ciphertext: flipped })).toBeUndefined();
    expect(openSealedToken(ticket, { ...sealed, tag: sealed.tag.subarray(0, 8) })).toBeUndefined();
    // A fresh IV each time: the same token under the same ticket never seals the same twice.
    expect(sealToken(ticket, TOKEN).ciphertext.equals(sealed.ciphertext)).toBe(false);
  });
});

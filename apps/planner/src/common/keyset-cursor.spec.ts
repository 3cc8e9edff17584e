import { keysetCursor, parseKeysetCursor } from './keyset-cursor';

describe('keyset cursors', () => {
  const id = '0b7c1f3e-5d2a-4c8b-9e6f-1a2b3c4d5e6f';

  it('reads back what it wrote', () => {
    expect(parseKeysetCursor(keysetCursor('Designer', id))).toEqual({ key: 'Designer', id });
  });

  it('refuses anything else: not base64url JSON, another shape, a bad id, a key the list refuses', () => {
    const isInstant = (key: string) => !Number.isNaN(Date.parse(key));
    for (const cursor of [
      'not a cursor',
      Buffer.from('[1,2]').toString('base64url'),
      Buffer.from(JSON.stringify(['a', id, 'c'])).toString('base64url'),
      keysetCursor('a', 'not-a-uuid'),
    ]) {
      expect(parseKeysetCursor(cursor)).toBeUndefined();
    }
    expect(parseKeysetCursor(keysetCursor('yesterday', id), isInstant)).toBeUndefined();
    expect(parseKeysetCursor(keysetCursor('2026-11-28T10:00:00.123Z', id), isInstant)).toEqual({
      key: '2026-11-28T10:00:00.123Z',
      id,
    });
  });
});

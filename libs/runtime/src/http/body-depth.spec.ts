import { MAX_BODY_DEPTH, nestsDeeperThan } from './body-depth';

/** `levels` nested arrays, built without recursion. */
function nestedArrays(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i += 1) {
    value = [value];
  }
  return value;
}

describe('nestsDeeperThan', () => {
  it('allows MAX_BODY_DEPTH levels and refuses one more', () => {
    expect(nestsDeeperThan(nestedArrays(MAX_BODY_DEPTH), MAX_BODY_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nestedArrays(MAX_BODY_DEPTH + 1), MAX_BODY_DEPTH)).toBe(true);
  });

  it('walks 200,000 levels without overflowing the stack', () => {
    expect(nestsDeeperThan(nestedArrays(200_000), MAX_BODY_DEPTH)).toBe(true);
  });

  it('finds the deep branch among wide shallow ones, and passes scalars and empty bodies', () => {
    const wide = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`k${i}`, { v: i }]));

    expect(nestsDeeperThan({ ...wide, deep: nestedArrays(40) }, MAX_BODY_DEPTH)).toBe(true);
    expect(nestsDeeperThan(wide, MAX_BODY_DEPTH)).toBe(false);
    for (const body of [undefined, null, 'text', 42, {}]) {
      expect(nestsDeeperThan(body, MAX_BODY_DEPTH)).toBe(false);
    }
  });
});

import { bodyShapeProblem, MAX_BODY_ARRAY_ITEMS, MAX_BODY_DEPTH } from './body-depth';

/** `levels` nested arrays, built without recursion. */
function nestedArrays(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i += 1) {
    value = [value];
  }
  return value;
}

describe('bodyShapeProblem', () => {
  it('allows MAX_BODY_DEPTH levels and refuses one more', () => {
    expect(bodyShapeProblem(nestedArrays(MAX_BODY_DEPTH))).toBeUndefined();
    expect(bodyShapeProblem(nestedArrays(MAX_BODY_DEPTH + 1))).toEqual(
      expect.objectContaining({ field: 'body', validation: 'maxDepth' }),
    );
  });

  it('walks 200,000 levels without overflowing the stack', () => {
    expect(bodyShapeProblem(nestedArrays(200_000))?.validation).toBe('maxDepth');
  });

  it('finds the deep branch among wide shallow ones, and passes scalars and empty bodies', () => {
    const wide = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`k${i}`, { v: i }]));

    expect(bodyShapeProblem({ ...wide, deep: nestedArrays(40) })?.validation).toBe('maxDepth');
    expect(bodyShapeProblem(wide)).toBeUndefined();
    for (const body of [undefined, null, 'text', 42, {}]) {
      expect(bodyShapeProblem(body)).toBeUndefined();
    }
  });

  it('refuses an array longer than MAX_BODY_ARRAY_ITEMS by its path, before looking at its items', () => {
    const items = Array.from({ length: MAX_BODY_ARRAY_ITEMS }, () => ({}));

    expect(bodyShapeProblem({ lines: items })).toBeUndefined();
    expect(bodyShapeProblem({ lines: [...items, {}] })).toEqual({
      field: 'lines',
      validation: 'arrayMaxSize',
      message: `lines must contain no more than ${MAX_BODY_ARRAY_ITEMS} elements`,
    });
    expect(bodyShapeProblem({ a: [{ b: new Array(50_000).fill(1) }] })?.field).toBe('a.0.b');
    expect(bodyShapeProblem(new Array(50_000).fill({}))?.field).toBe('body');
  });
});

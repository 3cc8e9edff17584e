/**
 * Hostile input, by class, as JSON text: text lets the fuzzer send what `JSON.stringify` cannot
 * build (`1e400`, own `__proto__` keys, lone surrogates, 5,000 levels of nesting).
 *
 * Each class is one way a black-box suite or an attacker broke the services (issue 20): a class the
 * fuzzer does not generate is a class of bug it cannot find.
 */
export type JsonText = string;

const json = (value: unknown): JsonText => JSON.stringify(value);
const deepArray = (levels: number): JsonText => '['.repeat(levels) + ']'.repeat(levels);
const deepObject = (levels: number): JsonText => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const repeated = (count: number, item: JsonText): JsonText =>
  `[${new Array<string>(count).fill(item).join(',')}]`;

export const HOSTILE_CLASSES = [
  'null',
  'wrongType',
  'deepNesting',
  'prototypeKeys',
  'hugeArray',
  'hugeNumber',
  'controlCharacters',
  'longString',
  'nonsenseDate',
] as const;
export type HostileClass = (typeof HOSTILE_CLASSES)[number];

/**
 * Values per class. Classes whose values are cheap to send are swept in full for every field; the
 * costly ones (`EXPENSIVE_CLASSES`) send one value per field, rotating, so every value is used
 * somewhere in each document.
 */
export const HOSTILE_VALUES: Readonly<Record<HostileClass, readonly JsonText[]>> = {
  null: ['null'],
  wrongType: ['true', '"fuzz"', '0', '-1', '1.5', '[]', '{}', '[1,"a",null]', '{"a":{"b":[]}}', '""'],
  deepNesting: [deepArray(40), deepObject(40), deepArray(300), deepArray(3_000), deepObject(5_000)],
  prototypeKeys: [
    '{"__proto__":{"isAdmin":true}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    '{"toString":1,"valueOf":"x","hasOwnProperty":null}',
    '[{"__proto__":null}]',
  ],
  // 150-200 KB each: under the 1 MiB body limit, so they reach the validation they used to amplify.
  hugeArray: [repeated(50_000, '{}'), repeated(100_000, '1'), repeated(20_000, '"fuzz"')],
  hugeNumber: [
    '1e308',
    '-1e308',
    '1e400',
    '9007199254740993',
    '2147483648',
    '-2147483649',
    '123456789012345678901234567890',
    '1e-400',
    '-0',
  ],
  controlCharacters: [
    json('a\u0000b'),
    json('\u0001\u0008\u001b[31m\u007f'),
    json('\u2028\u2029\u202e\u200b'),
    '"\\ud800"',
    json('%00%0a'),
    json('\r\nX-Injected: 1'),
  ],
  longString: [json('x'.repeat(20_000)), json('\u00e9'.repeat(5_000))],
  nonsenseDate: [
    json('2026-02-30'),
    json('0000-00-00'),
    json('2026-13-01T25:61:61Z'),
    json('99999-01-01'),
    json('-infinity'),
    json('2026-03-02 10:00:00 +99:99'),
  ],
};

export const EXPENSIVE_CLASSES: ReadonlySet<HostileClass> = new Set([
  'deepNesting',
  'hugeArray',
  'longString',
]);

/** Whole bodies, not field values: no JSON object at all, or an object attacked as a whole. */
export function hostileBodies(plausibleFields: Record<string, JsonText>): { name: string; text: string }[] {
  const fields = Object.entries(plausibleFields).map(([key, value]) => `${json(key)}:${value}`);
  const withFields = (...extra: string[]): string => `{${[...fields, ...extra].join(',')}}`;
  const unknownKeys = Array.from({ length: 1_000 }, (_, index) => `"unknown_${index}":${index}`);
  return [
    { name: 'null body', text: 'null' },
    { name: 'array body', text: '[]' },
    { name: 'string body', text: '"fuzz"' },
    { name: 'number body', text: '1e400' },
    { name: 'empty body', text: '' },
    { name: 'truncated JSON', text: '{"a":' },
    { name: 'body nested 5,000 levels (arrays)', text: deepArray(5_000) },
    { name: 'body nested 5,000 levels (objects)', text: deepObject(5_000) },
    { name: 'field nested 3,000 levels', text: withFields(`"nested":${deepArray(3_000)}`) },
    {
      name: 'prototype keys beside the real fields',
      text: withFields('"__proto__":{"role_id":1}', '"constructor":{"prototype":{"company_id":1}}'),
    },
    { name: 'unknown fields', text: withFields('"x-unknown":1', '"":null', '"\\u0000":"nul key"') },
    { name: '1,000 unknown fields', text: withFields(...unknownKeys) },
    { name: 'array of 50,000 empty objects', text: repeated(50_000, '{}') },
  ];
}

/** Path parameter values: each is sent percent-encoded, as a client library would. */
export const HOSTILE_PATH_VALUES: readonly string[] = [
  'null',
  '',
  ' 1',
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x10',
  '1e400',
  'Infinity',
  'NaN',
  '2147483648',
  '99999999999999999999',
  '__proto__',
  'constructor',
  'a\u0000b',
  '\u0001\u001b[31m',
  '../../etc/passwd',
  '%',
  'x'.repeat(5_000),
];

/** Query values: the path values, and every short field value (filters are JSON in a query string). */
export function hostileQueryValues(): string[] {
  const fieldValues = Object.values(HOSTILE_VALUES)
    .flat()
    .filter((text) => text.length <= 16_384);
  return [...new Set([...HOSTILE_PATH_VALUES, ...fieldValues])];
}

/** Query strings that attack the parser rather than one value. */
export function hostileQueryStrings(parameter: string): string[] {
  const name = encodeURIComponent(parameter);
  return [
    `${name}=1&${name}=2`,
    `${name}[]=1`,
    `${name}[__proto__][polluted]=1`,
    `${name}[constructor][prototype][polluted]=1`,
    `__proto__[polluted]=1&${name}=1`,
    `constructor=1&toString=1&hasOwnProperty=1`,
    `${'x'.repeat(5_000)}=1`,
    `${name}=%E0%A4%A`,
    `${name}=%00`,
  ];
}

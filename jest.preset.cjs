// Shared Jest settings for every project. NestJS 12 ships ESM only, and Jest's module system cannot
// load ESM from CommonJS, so swc transforms TypeScript *and* the ESM packages in node_modules to
// CommonJS (with legacy decorators and decorator metadata, which Nest's DI reads).
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const esmPackages = [
  '@nestjs',
  'file-type',
  'strtok3',
  'token-types',
  'peek-readable',
  '@tokenizer',
  'uint8array-extras',
  '@borewit',
  'content-disposition',
  'cookie',
  // OAuth interop tests (main-api): standard clients nobody here wrote.
  'openid-client',
  'oauth4webapi',
  'jose',
  // The OpenAPI contract every test's answers are checked against (libs/testing/src/openapi-contract.ts).
  '@apidevtools',
  '@jsdevtools',
];

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias.replace('/', '\\/')}$`,
    path.join(__dirname, target),
  ]),
);

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  transform: {
    '^.+\\.(t|j)s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleNameMapper,
  // The database helpers start Postgres once per project run and give each test file its own database.
  testTimeout: 30000,
};

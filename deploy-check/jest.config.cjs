const preset = require('../jest.preset.cjs');

/** @type {import('jest').Config} */
module.exports = {
  ...preset,
  displayName: 'deploy-check',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.spec.ts'],
  // kubernetes-models, its validator and the validator's CIDR check (is-cidr, cidr-regex) ship ESM
  // only: swc turns them into CommonJS like @nestjs.
  resolver: '<rootDir>/esm-only-resolver.cjs',
  transformIgnorePatterns: [
    preset.transformIgnorePatterns[0].replace(
      '(?!(',
      '(?!(kubernetes-models|@kubernetes-models|is-cidr|cidr-regex|',
    ),
  ],
};

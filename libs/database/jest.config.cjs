/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'database',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  globalSetup: '<rootDir>/../../tools/testing/jest-global-setup.mjs',
  globalTeardown: '<rootDir>/../../tools/testing/jest-global-teardown.mjs',
};

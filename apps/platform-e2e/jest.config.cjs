/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'platform-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/../../tools/testing/jest-global-setup.mjs',
  globalTeardown: '<rootDir>/../../tools/testing/jest-global-teardown.mjs',
  testTimeout: 60000,
};

// The integrations e2e specs that need a real main-api behind the service: they start both apps in
// process (integrations from its sources, main-api through main-api's test harness). The app's own
// suite (apps/integrations/jest.config.cjs) keeps the specs that need integrations alone.
/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'integrations-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/../../tools/testing/jest-global-setup.mjs',
  globalTeardown: '<rootDir>/../../tools/testing/jest-global-teardown.mjs',
};

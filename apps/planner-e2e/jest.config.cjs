// The planner e2e specs that need a real main-api behind the service: they start both apps in
// process (the planner from its sources, main-api through main-api's test harness). The app's own
// suite (apps/planner/jest.config.cjs) keeps the specs that need the planner alone.
/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'planner-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/../../tools/testing/jest-global-setup.mjs',
  globalTeardown: '<rootDir>/../../tools/testing/jest-global-teardown.mjs',
};

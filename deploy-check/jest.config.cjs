/** @type {import('jest').Config} */
module.exports = {
  ...require('../jest.preset.cjs'),
  displayName: 'deploy-check',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.spec.ts'],
};

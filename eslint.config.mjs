// One lint configuration for the workspace: type-aware rules (STYLE.md §10) and Nx module boundaries
// (apps never import apps, libs never import apps, libs only through their index).
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// Optional must mean "may be absent": IsOptional also lets null through to NOT NULL columns.
const NO_IS_OPTIONAL = {
  name: 'class-validator',
  importNames: ['IsOptional'],
  message:
    'Use MayBeAbsent() (or MayBeAbsentOrNull() where null clears a nullable column) from @platform/contracts.',
};

// TypeORM's index is its API; files below `typeorm/` are its internals, which change without notice
// (compiled-read.ts once reached for a private transformer there).
const DATA_ACCESS_EXCEPTIONS = [
  'apps/*/src/**/*.spec.ts',
  'apps/*/src/**/*.module.ts',
  'apps/*/src/database/**',
  'apps/*/src/migrate.ts',
  'apps/main-api/src/provisioning/**',
  'apps/*/src/**/*.repository.ts',
  'apps/main-api/src/oauth/rate-limit/login-throttle.ts',
];
const NO_DATA_SOURCE = {
  name: 'typeorm',
  importNames: ['DataSource'],
  message:
    "Reach data through the feature's repository on RequestTenantScope or TenantScopes (docs/decisions.md, Tenancy).",
};
const NO_SCOPES_OUTSIDE_REPOSITORIES = {
  name: '@platform/database',
  importNames: [
    'RequestTenantScope',
    'TenantScopes',
    'TenantScope',
    'TenantUnitOfWork',
    'TenantRepository',
    'FeatureRepository',
  ],
  message:
    "Queries live in the feature's <feature>.repository.ts; inject that repository (docs/decisions.md, Tenancy).",
};
const NO_TYPEORM_INTERNALS = {
  group: ['typeorm/*'],
  message: "Import from 'typeorm' itself: its other files are internals, not API.",
};

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'tmp/', '.nx/', '.data/', 'node_modules/', 'docker/', 'k8s/'] },
  // Written by `npm run openapi` from the committed documents (openapi-typescript's output, not ours).
  { ignores: ['libs/api-clients/src/generated/'] },
  js.configs.recommended,
  ...nx.configs['flat/base'],
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:main-api', onlyDependOnLibsWithTags: ['scope:shared', 'scope:main-api'] },
            { sourceTag: 'scope:planner', onlyDependOnLibsWithTags: ['scope:shared', 'scope:planner'] },
            {
              sourceTag: 'scope:integrations',
              onlyDependOnLibsWithTags: ['scope:shared', 'scope:integrations'],
            },
            { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:shared'] },
            // Checks of the repository itself (deploy-check reads the apps' configuration classes).
            { sourceTag: 'type:tooling', onlyDependOnLibsWithTags: ['type:lib'] },
          ],
        },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      // Decorator metadata needs runtime imports of injected classes, so only pure types are forced
      // into `import type`.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
      eqeqeq: ['error', 'always'],
      curly: ['error', 'all'],
      'no-console': 'error',
      // An update body's fields may be left out, not set to null (PartialType's default lets null through).
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='PartialType'][arguments.length=1]",
          message: 'Pass { skipNullProperties: false }: a field left out is unchanged, null is validated.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_IS_OPTIONAL],
          patterns: [NO_TYPEORM_INTERNALS],
        },
      ],
    },
  },
  {
    files: ['libs/contracts/src/validation/field-decorators.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  // Company data is reached through a feature's repository on a TenantScope (docs/decisions.md,
  // "Tenancy"): feature code does not get TypeORM's DataSource, which would run statements outside
  // any unit of work. Excepted: module wiring, the database folder and migrate command, provisioning
  // (a command line tool), repositories of data without a company, and the login throttle's
  // company-less counters.
  {
    files: ['apps/*/src/**/*.ts'],
    ignores: DATA_ACCESS_EXCEPTIONS,
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [NO_IS_OPTIONAL, NO_DATA_SOURCE], patterns: [NO_TYPEORM_INTERNALS] },
      ],
    },
  },
  // Nor does it get the scopes themselves: services, controllers and guards reach data through their
  // feature's repository, which owns the queries (one idiom, issue 23). The workers that act for many
  // companies, one unit of work at a time (outbound delivery), open their scopes themselves.
  {
    files: ['apps/*/src/**/*.ts'],
    ignores: [...DATA_ACCESS_EXCEPTIONS, 'apps/integrations/src/subscriptions/delivery/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_IS_OPTIONAL, NO_DATA_SOURCE, NO_SCOPES_OUTSIDE_REPOSITORIES],
          patterns: [NO_TYPEORM_INTERNALS],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'libs/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        module: 'writable',
        require: 'readonly',
        __dirname: 'readonly',
        URL: 'readonly',
        globalThis: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        fetch: 'readonly',
        AbortSignal: 'readonly',
      },
    },
  },
  prettier,
);

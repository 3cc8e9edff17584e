// One lint configuration for the workspace: type-aware rules (STYLE.md §10) and Nx module boundaries
// (apps never import apps, libs never import apps, libs only through their index; only the e2e
// projects import apps).
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
// (a compiled-read helper once reached for a private transformer there).
const DATA_ACCESS_EXCEPTIONS = [
  'apps/*/src/**/*.spec.ts',
  // The e2e projects' src/ is tests, like apps/<app>/test/.
  'apps/*-e2e/**',
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
// A statement inside a unit of work must carry that unit's settings (row-level security): the data
// source's ScopedPool (libs/database/src/scoped-pool.ts) connects in its caller's async context, a pool
// of pg's own would run a callback's statement with whichever request's settings released the
// connection (scoped-pool.spec.ts). Features reach SQL through their scope's `sql`.
const NO_PG_POOL = {
  name: 'pg',
  importNames: ['Pool'],
  message:
    "Use the scope's sql (ScopedSql) or, in libs/database, ScopedPool: pg's own Pool loses the tenant context.",
};
const NO_TYPEORM_INTERNALS = {
  group: ['typeorm/*'],
  message: "Import from 'typeorm' itself: its other files are internals, not API.",
};

// Apps depend on libs only, never on another app (nx graph shows no app -> app edge, and building
// one app compiles no other). Tests that need two apps running together live in their own type:e2e
// project: planner-e2e and integrations-e2e start the app they test and main-api in process,
// platform-e2e runs the built services as processes and reaches them over HTTP only. Whatever the
// tags, a relative import into another project is an error (apps have no index to import through);
// `allow` lifts that for the e2e projects' imports of the apps they start (the block near the end).
function moduleBoundaries(allow) {
  return {
    enforceBuildableLibDependency: false,
    allow,
    depConstraints: [
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
      { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
      { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:app', 'type:lib'] },
      { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
      { sourceTag: 'scope:main-api', onlyDependOnLibsWithTags: ['scope:shared', 'scope:main-api'] },
      { sourceTag: 'scope:planner', onlyDependOnLibsWithTags: ['scope:shared', 'scope:planner'] },
      {
        sourceTag: 'scope:integrations',
        onlyDependOnLibsWithTags: ['scope:shared', 'scope:integrations'],
      },
      {
        sourceTag: 'scope:planner-e2e',
        onlyDependOnLibsWithTags: ['scope:shared', 'scope:planner', 'scope:main-api'],
      },
      {
        sourceTag: 'scope:integrations-e2e',
        onlyDependOnLibsWithTags: ['scope:shared', 'scope:integrations', 'scope:main-api'],
      },
      // platform-e2e: the built services over HTTP, no app's code.
      { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:shared'] },
      // Checks of the repository itself (deploy-check reads the apps' configuration classes).
      { sourceTag: 'type:tooling', onlyDependOnLibsWithTags: ['type:lib'] },
    ],
  };
}

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
      '@nx/enforce-module-boundaries': ['error', moduleBoundaries([])],
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
          paths: [NO_IS_OPTIONAL, NO_PG_POOL],
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
        { paths: [NO_IS_OPTIONAL, NO_PG_POOL, NO_DATA_SOURCE], patterns: [NO_TYPEORM_INTERNALS] },
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
          paths: [NO_IS_OPTIONAL, NO_PG_POOL, NO_DATA_SOURCE, NO_SCOPES_OUTSIDE_REPOSITORIES],
          patterns: [NO_TYPEORM_INTERNALS],
        },
      ],
    },
  },
  // The in-process e2e projects import the app they test and main-api (its test harness, and
  // provisioning for integrations) by relative path from src/. Only these projects, only those apps.
  {
    files: ['apps/planner-e2e/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        moduleBoundaries([
          '../../planner/**',
          '../../main-api/**',
          '../../../planner/**',
          '../../../main-api/**',
        ]),
      ],
    },
  },
  {
    files: ['apps/integrations-e2e/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        moduleBoundaries(['../../integrations/**', '../../main-api/**', '../../planner/**']),
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

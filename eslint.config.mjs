// ESLint 9 flat config. STYLE.md §6: Nx project tags with real boundaries — apps may import
// libs; libs/domain and libs/areas import no framework or driver packages except in the named
// infrastructure folder (libs/domain/src/infrastructure) and in tests.
// Not type-checked (typescript-eslint `recommended`, no parserOptions.project) so that a lint
// of the whole repository stays fast; `npm run typecheck` is the type gate.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import { createProjectGraphAsync } from '@nx/devkit';
import { areaBoundaries } from './eslint.area-boundaries.cjs';

// @nx/enforce-module-boundaries reads the project graph Nx caches in .nx/workspace-data and is
// silently skipped when there is none (fresh clone, CI, plain `npx eslint`). Inside an Nx task
// the graph was just computed; anywhere else compute it here (well under a second), so the
// boundaries are always enforced and never checked against a stale graph.
if (!process.env.NX_TASK_TARGET_PROJECT) await createProjectGraphAsync({ exitOnError: true });

/** Packages that tie code to a framework, a driver or a transport (DESIGN.md "Shape"). */
const frameworkPackages = ['@nestjs/*', 'typeorm', 'typeorm/*', 'kafkajs', 'kafkajs/*', 'pg', 'pg/*', 'bullmq', 'bullmq/*', 'ioredis', 'ioredis/*', 'fastify', 'fastify/*', '@fastify/*'];

const frameworkPattern = {
  group: frameworkPackages,
  message:
    'libs/domain and libs/areas stay framework-free (STYLE.md §6): Nest, TypeORM, pg, Kafka, BullMQ, Redis and Fastify belong in libs/domain/src/infrastructure or in apps/.',
};

const domainInfrastructurePattern = {
  group: ['@einvoice/domain/infrastructure', '@einvoice/domain/infrastructure/*'],
  message: 'libs/areas holds pure area code: it may use @einvoice/domain, never its infrastructure (connections, event store, Kafka).',
};

const testFiles = ['**/*.spec.ts', '**/test/**'];

/**
 * Tags are set in each project.json: apps `type:app`; libs `type:lib` plus `scope:domain` or
 * `scope:areas`. Apps may use libs; libs only libs; areas may use domain, never the reverse.
 */
const moduleBoundaries = {
  enforceBuildableLibDependency: false,
  allow: [],
  depConstraints: [
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
    { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
    { sourceTag: 'scope:domain', onlyDependOnLibsWithTags: ['scope:domain'], notDependOnLibsWithTags: ['scope:areas'] },
    { sourceTag: 'scope:areas', onlyDependOnLibsWithTags: ['scope:areas', 'scope:domain'] },
  ],
};

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/.run/**', 'infra/**', '**/*.js', '**/*.cjs', '**/*.mjs'],
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    plugins: { '@nx': nx },
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'warn',
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      '@typescript-eslint/no-explicit-any': 'warn',
      '@nx/enforce-module-boundaries': ['error', moduleBoundaries],
    },
  },
  // Flat config replaces (does not merge) a rule's options when a later block sets it again,
  // so each block below carries the full list that applies to its files.
  {
    files: ['libs/domain/src/**/*.ts'],
    ignores: ['libs/domain/src/infrastructure/**', ...testFiles],
    rules: {
      'no-restricted-imports': ['error', { patterns: [frameworkPattern] }],
    },
  },
  {
    files: ['libs/areas/src/**/*.ts'],
    ignores: testFiles,
    rules: {
      'no-restricted-imports': ['error', { patterns: [frameworkPattern, domainInfrastructurePattern] }],
    },
  },
  {
    // Area tests may use real drivers, but still not the domain's infrastructure.
    files: testFiles.map((glob) => `libs/areas/src/${glob}`),
    rules: {
      'no-restricted-imports': ['error', { patterns: [domainInfrastructurePattern] }],
    },
  },
  {
    // Tests share the repository-level helpers in test/support (real PostgreSQL, Kafka) and the
    // fakes of authorities' APIs in test/fakes, which
    // belong to no project; only tests may reach them, by relative path. `allow` entries without
    // a trailing /* are regular expressions (runtime-lint-utils matchImportWithWildcard).
    files: testFiles,
    rules: {
      '@nx/enforce-module-boundaries': ['error', { ...moduleBoundaries, allow: ['^(\\.\\./)+test/support/', '^(\\.\\./)+test/fakes/'] }],
    },
  },
  // Inside libs/areas (one Nx project) and the gateway's per-area folders: area folders do not
  // import each other; shared modules import no area (#45; tests included).
  ...areaBoundaries(),
);

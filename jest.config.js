// Three levels, told apart by file name (STYLE.md §5): *.unit.spec.ts are pure,
// *.int.spec.ts use real PostgreSQL/Redis/Kafka, *.e2e.spec.ts drive the running apps over HTTP.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];
const moduleNameMapper = {
  '^@einvoice/domain/infrastructure$': '<rootDir>/libs/domain/src/infrastructure/index.ts',
  '^@einvoice/domain/mail-capture$': '<rootDir>/libs/domain/src/infrastructure/mail/capture-mailbox.ts',
  '^@einvoice/domain$': '<rootDir>/libs/domain/src/index.ts',
  '^@einvoice/areas$': '<rootDir>/libs/areas/src/index.ts',
  '^@einvoice/areas/conformance$': '<rootDir>/libs/areas/src/conformance/official-validators.ts',
};
const base = {
  rootDir: __dirname,
  transform: { '^.+\\.ts$': swc },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
};
module.exports = {
  // Jest 29 reads testTimeout only at the top level, not per project.
  testTimeout: 180_000,
  projects: [
    { ...base, displayName: 'unit', testMatch: ['**/*.unit.spec.ts'] },
    { ...base, displayName: 'int', testMatch: ['**/*.int.spec.ts'] },
    { ...base, displayName: 'e2e', testMatch: ['**/*.e2e.spec.ts'] },
  ],
};

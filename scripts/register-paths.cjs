// Resolves the tsconfig path aliases (@einvoice/domain, @einvoice/areas) against the compiled
// tree in dist/, for the apps started with `node -r scripts/register-paths.cjs dist/...`.
const path = require('node:path');
const { register } = require('tsconfig-paths');

const dist = path.resolve(__dirname, '..', 'dist');
register({
  baseUrl: dist,
  paths: {
    '@einvoice/domain/infrastructure': ['libs/domain/src/infrastructure/index.js'],
    '@einvoice/domain/mail-capture': ['libs/domain/src/infrastructure/mail/capture-mailbox.js'],
    '@einvoice/domain': ['libs/domain/src/index.js'],
    '@einvoice/areas': ['libs/areas/src/index.js'],
  },
});

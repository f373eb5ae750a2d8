// `node scripts/lib/asyncapi-validate.mjs <asyncapi.json>`: parses an AsyncAPI document with the
// AsyncAPI Initiative's own parser (@asyncapi/parser: the specification's JSON Schema, references
// resolved, its Spectral rules) and prints `{"messages":<n>,"diagnostics":[{severity,code,message,path}]}`
// (severity 0 error, 1 warning, 2 information, 3 hint). A script, as openapi-validate.mjs is: the jest
// tests (CommonJS) run it in a child process.
import { readFileSync } from 'node:fs';
import { Parser } from '@asyncapi/parser';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: asyncapi-validate.mjs <asyncapi.json>\n');
  process.exit(2);
}
const { document, diagnostics } = await new Parser().parse(readFileSync(file, 'utf8'));
process.stdout.write(
  `${JSON.stringify({
    messages: document ? document.allMessages().length : null,
    diagnostics: diagnostics.map(({ severity, code, message, path }) => ({ severity, code, message, path: path.join('/') })),
  })}\n`,
);

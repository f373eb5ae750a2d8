// `node scripts/lib/openapi-validate.mjs <openapi.json>`: validates an OpenAPI document with
// @apidevtools/swagger-parser (schema of its OpenAPI version, references resolved) and prints
// `{"valid":true}` or `{"valid":false,"error":"..."}`. A script because the validator is an ES module,
// which the jest tests (CommonJS) run in a child process, as they do the AS4 engine's script.
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: openapi-validate.mjs <openapi.json>\n');
  process.exit(2);
}
try {
  await SwaggerParser.validate(JSON.parse(readFileSync(file, 'utf8')));
  process.stdout.write(`${JSON.stringify({ valid: true })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ valid: false, error: String(error?.message ?? error) })}\n`);
}

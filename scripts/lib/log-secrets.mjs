// After the suite (`npm test`): no secret the tests handed to the service or got from it (recorded by
// test/support/secrets.ts) and nothing shaped like one (a private key, a secret-named JSON field with a
// value) may appear in any app's log line (captured by test/support/stack.ts under TEST_LOG_DIR).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const SHAPES = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /"(password|passwd|client_secret|clientSecret|api_?key|apiKey|secret|access_token|accessToken|refresh_token|private_key_pem|ksef_token|authorization)"\s*:\s*"(?!\[redacted\])[^"]{4,}"/i,
  /Bearer [A-Za-z0-9._~+/-]{16,}/,
];

/** The offending lines, each with what it leaked (masked) and where. */
export function secretsInLogs(dir, secretsFile) {
  if (!existsSync(dir)) return [];
  const secrets = existsSync(secretsFile) ? readFileSync(secretsFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
  const mask = (s) => `${s.slice(0, 3)}…(${s.length} characters)`;
  const found = [];
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.log'))) {
    const lines = readFileSync(path.join(dir, name), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const secret = secrets.find((s) => line.includes(s));
      const shape = SHAPES.find((re) => re.test(line));
      if (secret || shape) found.push({ file: name, line: i + 1, leaked: secret ? mask(secret) : `shape ${shape}`, text: secret ? line.split(secret).join('[SECRET]').slice(0, 300) : line.slice(0, 300) });
    });
  }
  return found;
}

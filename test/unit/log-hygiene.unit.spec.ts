// Log hygiene (#17): every line carries the context of its work, secret-named fields are redacted, and
// the after-suite check (scripts/lib/log-secrets.mjs) finds a secret in a log line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addToLogContext, createLogger, withLogContext } from '@einvoice/domain';

function captured(write: () => void): Array<Record<string, unknown>> {
  const lines: string[] = [];
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => lines.push(String(chunk)) > 0) as typeof process.stderr.write;
  try {
    write();
  } finally {
    process.stderr.write = original;
  }
  return lines.map((l) => JSON.parse(l));
}

describe('log lines', () => {
  it('carry the context of the work they belong to, nested, and redact secret-named fields', async () => {
    const log = createLogger('test', 'debug');
    const lines = captured(() =>
      withLogContext({ correlationId: 'req-1', tenantId: 't-1' }, () =>
        withLogContext({ area: 'ar', documentId: 'd-1', eventId: undefined }, () =>
          log('warn', 'something', { client_secret: 'abc', password: 'p', apiKey: 'k', token_type: 'Bearer', accessToken: 't', ok: 1 }))));
    expect(lines).toEqual([expect.objectContaining({
      message: 'something', correlationId: 'req-1', tenantId: 't-1', area: 'ar', documentId: 'd-1',
      client_secret: '[redacted]', password: '[redacted]', apiKey: '[redacted]', accessToken: '[redacted]', token_type: 'Bearer', ok: 1,
    })]);
    expect(lines[0]).not.toHaveProperty('eventId');
    expect(captured(() => log('info', 'outside'))[0]).not.toHaveProperty('correlationId');
  });

  it('take what the work learns on the way (addToLogContext: an HTTP request\'s tenant), after an await too, and only in that work', async () => {
    const log = createLogger('test', 'debug');
    const lines: Array<Record<string, unknown>> = [];
    const other = withLogContext({ correlationId: 'req-2' }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      lines.push(...captured(() => log('info', 'other request')));
    });
    await withLogContext({ correlationId: 'req-1' }, async () => {
      const before = captured(() => log('info', 'before the key'));
      expect(before[0]).not.toHaveProperty('tenantId');
      addToLogContext({ tenantId: 't-1', documentId: undefined });
      await new Promise((resolve) => setImmediate(resolve));
      lines.push(...captured(() => log('info', 'handled')));
    });
    await other;
    expect(lines).toEqual(expect.arrayContaining([
      expect.objectContaining({ message: 'handled', correlationId: 'req-1', tenantId: 't-1' }),
      expect.not.objectContaining({ tenantId: expect.anything() }),
    ]));
    expect(lines.find((l) => l.message === 'other request')).not.toHaveProperty('tenantId');
    expect(lines.find((l) => l.message === 'handled')).not.toHaveProperty('documentId');
    addToLogContext({ tenantId: 'nowhere' });
    expect(captured(() => log('info', 'outside'))[0]).not.toHaveProperty('tenantId');
  });

  it('the after-suite check finds a recorded secret and a secret-shaped field in a log line, and passes clean logs', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'log-secrets-'));
    try {
      const secrets = path.join(dir, 'secrets.jsonl');
      writeFileSync(secrets, `${JSON.stringify('sk_test_0123456789abcdef')}\n`);
      writeFileSync(path.join(dir, 'gateway-1.log'), '{"message":"ok"}\n{"message":"key sk_test_0123456789abcdef used"}\n{"password":"hunter22"}\n');
      writeFileSync(path.join(dir, 'worker-2.log'), '{"message":"fine","password":"[redacted]"}\n');
      const run = (file: string) => spawnSync(process.execPath, ['--input-type=module', '-e', `import { secretsInLogs } from ${JSON.stringify(path.resolve('scripts/lib/log-secrets.mjs'))}; console.log(JSON.stringify(secretsInLogs(${JSON.stringify(dir)}, ${JSON.stringify(file)})));`], { encoding: 'utf8' });
      const found = JSON.parse(run(secrets).stdout);
      expect(found.map((f: { file: string; line: number }) => [f.file, f.line])).toEqual([['gateway-1.log', 2], ['gateway-1.log', 3]]);
      expect(JSON.stringify(found)).not.toContain('sk_test_0123456789abcdef');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

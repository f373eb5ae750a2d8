import { addToLogContext, createLogger, logContextFields, withLogContext } from './log';

describe('log context: what every line of a piece of work carries', () => {
  it('adds a context\'s defined fields to those in force, for its work only, across awaits', async () => {
    const seen: Array<Readonly<Record<string, unknown>>> = [];
    await withLogContext({ correlationId: 'c1', tenant: undefined, trace: null }, async () => {
      seen.push({ ...logContextFields() });
      await withLogContext({ documentId: 'd1', correlationId: 'c2' }, async () => {
        await new Promise((resolve) => setImmediate(resolve));
        seen.push({ ...logContextFields() });
      });
      addToLogContext({ tenant: 't1', skipped: undefined });
      seen.push({ ...logContextFields() });
    });
    seen.push({ ...logContextFields() });
    expect(seen).toEqual([{ correlationId: 'c1' }, { correlationId: 'c2', documentId: 'd1' }, { correlationId: 'c1', tenant: 't1' }, {}]);
  });

  it('writes the context on each line, a secret field redacted', () => {
    const lines: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
    try {
      withLogContext({ correlationId: 'c1' }, () => createLogger('test', 'info')('info', 'hello', { apiKey: 'k', n: 1 }));
    } finally {
      write.mockRestore();
    }
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'info', app: 'test', message: 'hello', correlationId: 'c1', apiKey: '[redacted]', n: 1 });
  });
});

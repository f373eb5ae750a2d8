/**
 * #48 the Kafka topics as a contract: the AsyncAPI 3.0 document built from the event registry and the
 * JSON Schemas generated from the events' TypeScript types (committed, and the same as the generator
 * makes now), parsed by the AsyncAPI Initiative's parser with no error; every published event type a
 * message on its topic's channel, every unpublished one absent; and docs/consuming-events.md's example
 * the file its e2e runs.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { RENDERED_DOCUMENT_FIELDS, asyncApiDocument, platformEventRegistry, type AsyncApiDocument } from '@einvoice/domain/infrastructure';
import { areaEventPlugins, registeredAreas } from '@einvoice/areas';
import generated from '../../libs/domain/src/infrastructure/asyncapi/event-schemas.json';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');

jest.setTimeout(120_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What the AsyncAPI parser says of a document (scripts/lib/asyncapi-validate.mjs). */
async function parsed(document: object, dir: string): Promise<{ messages: number | null; diagnostics: Array<{ severity: number; code: string; message: string; path: string }> }> {
  const file = path.join(dir, `asyncapi-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify(document));
  const { stdout } = await run(process.execPath, [path.join(ROOT, 'scripts', 'lib', 'asyncapi-validate.mjs'), file], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout);
}

describe('#48 the AsyncAPI document of the Kafka topics', () => {
  // Every area, the test suite's own included: its registry is the widest.
  const registry = platformEventRegistry(areaEventPlugins(registeredAreas({ EINVOICE_TEST_AREAS: '1' })));
  const document = asyncApiDocument(registry, { prefix: 'einvoice' }) as AsyncApiDocument & Json;
  const messages = document.components.messages as Record<string, Json>;
  const definitions = document.components.schemas as Record<string, Json>;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'asyncapi-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('has the committed event schemas that `npm run event-schemas` generates from the TypeScript types now', async () => {
    const { stdout } = await run(process.execPath, [path.join(ROOT, 'scripts', 'generate-event-schemas.mjs'), '--stdout'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    const committed = await readFile(path.join(ROOT, 'libs', 'domain', 'src', 'infrastructure', 'asyncapi', 'event-schemas.json'), 'utf8');
    // On a difference: run `npm run event-schemas` and commit libs/domain/src/infrastructure/asyncapi/event-schemas.json.
    expect(committed).toBe(stdout);
  });

  it('is AsyncAPI 3.0 that @asyncapi/parser parses with no error and no warning', async () => {
    expect(document.asyncapi).toBe('3.0.0');
    const result = await parsed(document, dir);
    expect(result.diagnostics.filter((d) => d.severity <= 1)).toEqual([]);
    expect(result.messages).toBe(Object.keys(messages).length);
  });

  it('fails the parser when broken (the check can fail): a message naming a schema that is not there', async () => {
    const broken = structuredClone(document) as Json;
    broken.components.messages.DocumentSubmitted.payload.properties.data = { $ref: '#/components/schemas/NoSuchSchema' };
    const result = await parsed(broken, dir);
    expect(result.diagnostics.some((d) => d.severity === 0)).toBe(true);
  });

  it('has every published event type of the registry as a message on the channel of its topic, and no unpublished one', () => {
    const published = registry.eventTypes.filter((type) => registry.published({ type, streamId: '', data: {} }));
    const unpublished = registry.eventTypes.filter((type) => !published.includes(type));
    expect(unpublished.sort()).toEqual(['AuthorityReportAttemptTurnedAway', 'AuthorityReportAttempted', 'AuthorityReportPolled']);
    expect(Object.keys(messages).sort()).toEqual([...published].sort());
    for (const type of unpublished) expect(JSON.stringify(document)).not.toMatch(new RegExp(`"${type}(Data)?"`));
    const channelOf = (type: string) => Object.entries(document.channels as Record<string, Json>).filter(([, channel]) => type in channel.messages).map(([family]) => family);
    for (const [kind, types] of Object.entries(generated.streams)) {
      for (const type of Object.keys(types).filter((t) => published.includes(t))) {
        const topic = registry.topicFor('{prefix}', `${kind}-0`, type);
        expect([type, channelOf(type).map((family) => `{prefix}.${family}`)]).toEqual([type, [topic]]);
      }
    }
    expect(channelOf('DocumentSubmitted')).toEqual(['documents']);
    expect(channelOf('DocumentReceived')).toEqual(['received']);
    expect(document.channels.documents.address).toBe('{prefix}.documents');
    expect(document.channels.documents.parameters.prefix.default).toBe('einvoice');
    expect(Object.values(document.operations as Record<string, Json>).map((o) => [o.action, o.channel.$ref])).toEqual(
      Object.keys(document.channels).map((family) => ['receive', `#/channels/${family}`]),
    );
  });

  it('gives each message its key (the stream id), its headers, the envelope codec.ts writes, and its schema version', () => {
    const submitted = messages.DocumentSubmitted;
    expect(submitted.bindings.kafka.key).toMatchObject({ type: 'string', pattern: '^document-' });
    expect(Object.keys(submitted.headers.properties)).toEqual(['x-event-id', 'x-event-type', 'x-stream-kind', 'x-area', 'traceparent']);
    expect(submitted.headers.properties['x-event-type'].const).toBe('DocumentSubmitted');
    expect(submitted.payload.required).toEqual(['eventId', 'streamId', 'streamPosition', 'globalPosition', 'type', 'schemaVersion', 'data', 'metadata', 'recordedAt']);
    expect(submitted.payload.properties.data).toEqual({ $ref: '#/components/schemas/DocumentSubmittedData' });
    expect(definitions.DocumentSubmittedData.required).toEqual(expect.arrayContaining(['documentId', 'xml', 'fields']));
    expect(definitions.EventMetadata.required).toEqual(['tenantId']);
    expect(submitted['x-schema-version']).toBe(1);
    // AuthorityReportAccepted is at schema 2 (reporting plug-in), its older messages upcast.
    expect(messages.AuthorityReportAccepted['x-schema-version']).toBe(registry.versionOf('AuthorityReportAccepted'));
    expect(messages.AuthorityReportAccepted['x-schema-version']).toBe(2);
    expect(messages.AuthorityReportAccepted.payload.properties.schemaVersion).toMatchObject({ minimum: 1, maximum: 2 });
    // Refused for the events of batched areas only (Spain's VeriFactu): published for the others', and says so.
    expect(messages.AuthorityReportRequested.description).toMatch(/^Not published for the events of the areas ar, es, my(, toy)?\.$/m);
  });

  it('says which events carry the rendered document and which name it, with fields that exist', () => {
    for (const [type, fields] of Object.entries(RENDERED_DOCUMENT_FIELDS)) {
      const data = definitions[messages[type].payload.properties.data.$ref.split('/').pop()];
      for (const field of fields) expect([type, field, field in data.properties]).toEqual([type, field, true]);
      expect(messages[type].description).toContain('Carries the');
      expect(messages[type].description).not.toContain('Carries no rendered document');
    }
    for (const type of ['DocumentSent', 'DocumentDelivered', 'DocumentDeliveryFailed', 'AuthorityReportAccepted', 'AuthorityReportRejected']) {
      expect(messages[type].description).toContain('Carries no rendered document: it names it by `data.documentId`');
    }
  });

  it('refuses a published event type without a generated schema', () => {
    const { DocumentSent: _dropped, ...document } = generated.streams.document;
    expect(() => asyncApiDocument(registry, { prefix: 'einvoice', schemas: { ...generated, streams: { ...generated.streams, document } } })).toThrow(/DocumentSent: run `npm run event-schemas`/);
  });

  it('has docs/consuming-events.md show docs/examples/consume-documents.ts as it is (the file its e2e runs)', async () => {
    const doc = await readFile(path.join(ROOT, 'docs', 'consuming-events.md'), 'utf8');
    const example = await readFile(path.join(ROOT, 'docs', 'examples', 'consume-documents.ts'), 'utf8');
    const block = /<!-- example: docs\/examples\/consume-documents\.ts -->\n```ts\n([\s\S]*?)```\n/.exec(doc);
    // On a difference: copy the file into the block after the marker.
    expect(block?.[1]).toBe(example);
  });

  it('has docs/consuming-events.md name every published event type, on its topic\'s line', async () => {
    const doc = await readFile(path.join(ROOT, 'docs', 'consuming-events.md'), 'utf8');
    for (const [family, channel] of Object.entries(document.channels as Record<string, Json>)) {
      const line = doc.split('\n').find((l) => l.startsWith(`| \`<prefix>.${family}\` |`)) ?? '';
      expect([family, Object.keys(channel.messages).filter((type) => !new RegExp(`\\b${type}\\b`).test(line))]).toEqual([family, []]);
    }
  });
});

import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import Ajv from 'ajv';
import type { DataSource } from 'typeorm';
import { createKafka, loadInfrastructureConfig } from '@einvoice/domain/infrastructure';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { beVat } from '../support/identifiers';
import { AppProcess, eventually, startGateway } from '../support/stack';

const ROOT = path.resolve(__dirname, '..', '..');
const EXAMPLE = path.join(ROOT, 'docs', 'examples', 'consume-documents.ts');
const run = Date.now().toString(36).toUpperCase();

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What the example prints per event (docs/examples/consume-documents.ts). */
interface ExampleLine {
  readonly type: string;
  readonly eventId: string;
  readonly documentId?: string;
  readonly schemaVersion: number;
  readonly xmlBytes?: number;
}

/** The example, run as docs/consuming-events.md says (Node runs the .ts as it is), its lines collected. */
function startExample(env: NodeJS.ProcessEnv): { child: ChildProcess; lines: ExampleLine[]; output: () => string } {
  const child = spawn(process.execPath, [EXAMPLE], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: ExampleLine[] = [];
  let pending = '';
  let all = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    all += chunk.toString();
    pending += chunk.toString();
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    for (const line of complete) if (line.trim()) lines.push(JSON.parse(line));
  });
  child.stderr!.on('data', (chunk: Buffer) => (all += chunk.toString()));
  return { child, lines, output: () => all };
}

/**
 * #48 docs/consuming-events.md's example consumer, run against the real broker of `npm test`: with a group
 * of its own it sees a Belgian invoice submitted through the API as DocumentSubmitted on `<prefix>.documents`,
 * with its UBL; the message on the wire is what GET /asyncapi.json (public) says it is.
 */
describe('#48 an internal consumer of <prefix>.documents (docs/consuming-events.md)', () => {
  const prefix = loadInfrastructureConfig().kafkaPrefix;
  let dataSource: DataSource;
  let gateway: { app: AppProcess; url: string };
  let client: Client;
  let example: ReturnType<typeof startExample>;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e consuming events');
    gateway = await startGateway();
    client = new Client(gateway.url, apiKey);
    example = startExample({ ...process.env, KAFKA_TOPIC_PREFIX: prefix, GROUP_ID: `${prefix}.e2e-archiver-${run}` });
  }, 120_000);

  afterAll(async () => {
    if (example?.child.exitCode === null) {
      const exited = new Promise((resolve) => example.child.once('exit', resolve));
      example.child.kill('SIGTERM');
      await exited;
    }
    await gateway?.app.stop();
    await dataSource?.destroy();
  });

  it('sees the DocumentSubmitted of a Belgian invoice sent through the API, with its UBL, as the AsyncAPI document describes it', async () => {
    const onboarded = await client.post('/be/einvoice/onboard', { registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], street: 'Rue de la Loi 16', city: 'Brussels', country: 'BE' });
    expect(onboarded.status).toBe(201);
    const submitted = await client.post(
      '/be/einvoice/generate/invoice',
      {
        ID: `EVENTS-${run}`, DocumentType: '380', IssueDate: '2026-03-15',
        CustomerParty: { RegisteredName: 'Antwerp Buyer BV', address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' }, Identifiers: [{ Scheme: 'BE:VAT', ID: beVat() }] },
        InvoiceLines: [{ Description: 'Widgets', PriceAmount: 40, InvoicedQuantity: 2, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }],
        TotalIncludingVat: 96.8,
      },
      { supplier_uuid: onboarded.body.data.supplier_uuid },
    );
    expect(submitted.status).toBe(202);
    const documentId = submitted.body.data.DocumentID as string;

    const seen = await eventually(
      'the example printing the DocumentSubmitted',
      async () => {
        if (example.child.exitCode !== null) throw new Error(`the example exited (${example.child.exitCode}): ${example.output()}`);
        return example.lines.find((line) => line.type === 'DocumentSubmitted' && line.documentId === documentId);
      },
      60_000,
    );
    expect(seen).toEqual({ type: 'DocumentSubmitted', eventId: expect.any(String), documentId, schemaVersion: 1, streamPosition: 1, xmlBytes: expect.any(Number) });
    expect(seen.xmlBytes).toBeGreaterThan(1_000);

    // The same message read off the topic: its key, headers and value as GET /asyncapi.json says (no API key needed).
    const answer = await fetch(`${gateway.url}/asyncapi.json`);
    expect(answer.status).toBe(200);
    const asyncapi = (await answer.json()) as Json;
    expect(asyncapi.channels.documents.address).toBe('{prefix}.documents');
    expect(asyncapi.channels.documents.parameters.prefix.default).toBe(prefix);
    const message = await messageOf(`${prefix}.documents`, `document-${documentId}`, 'DocumentSubmitted');
    const described = asyncapi.components.messages.DocumentSubmitted;
    expect(message.headers['x-event-id']).toBe(seen.eventId);
    // AsyncAPI keywords beside JSON Schema's (`examples`) and formats are not what is checked here: the shape is.
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    const check = (schema: Json, value: unknown) => {
      const validate = ajv.compile({ ...schema, components: asyncapi.components });
      return validate(value) ? [] : validate.errors;
    };
    expect(check(described.payload, message.value)).toEqual([]);
    expect(check(described.headers, message.headers)).toEqual([]);
    expect(check(described.bindings.kafka.key, message.key)).toEqual([]);
    expect(message.value).toMatchObject({ eventId: seen.eventId, type: 'DocumentSubmitted', data: { documentId, area: 'be', xml: expect.stringContaining('<Invoice') } });
  });
});

/** The first message of `key` and `type` on `topic` (a group of its own, from the beginning), as text headers and parsed value. */
async function messageOf(topic: string, key: string, type: string): Promise<{ key: string; headers: Record<string, string>; value: Json }> {
  const kafka = createKafka({ ...loadInfrastructureConfig(), kafkaClientId: 'e2e-consuming-events' });
  const consumer = kafka.consumer({ groupId: `${topic}.e2e-read-${run}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let found: { key: string; headers: Record<string, string>; value: Json } | undefined;
    await consumer.run({
      eachMessage: async ({ message }) => {
        if (found || message.key?.toString() !== key || message.headers?.['x-event-type']?.toString() !== type) return;
        const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)]));
        found = { key, headers, value: JSON.parse(message.value!.toString('utf8')) };
      },
    });
    return await eventually(`${type} of ${key} on ${topic}`, async () => found, 60_000);
  } finally {
    await consumer.disconnect();
  }
}

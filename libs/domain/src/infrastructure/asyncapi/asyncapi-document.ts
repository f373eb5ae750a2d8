import type { TopicFamily } from '../../plugin';
import { EVENT_HEADERS } from '../kafka/headers';
import { DEFAULT_PARTITIONS } from '../kafka/topics';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../kafka/message-size';
import type { EventRegistry } from '../plugins/event-registry';
import generated from './event-schemas.json';

/**
 * The Kafka topics as a contract (issue 48): an AsyncAPI 3.0 document built from the app's event
 * registry (which types are published, on which topic, at which schema version) and the JSON Schemas
 * that `npm run event-schemas` generated from the events' TypeScript types (event-schemas.json). Served
 * at `GET /asyncapi.json` and printed by `cli asyncapi`; docs/consuming-events.md explains it.
 */
export type AsyncApiDocument = Record<string, unknown> & { readonly asyncapi: '3.0.0' };

type Schema = Record<string, unknown>;

/** The generated file's shape (scripts/generate-event-schemas.mjs). */
interface EventSchemas {
  readonly metadata: Schema;
  /** By stream kind, each event type's data schema. */
  readonly streams: Readonly<Record<string, Readonly<Record<string, Schema>>>>;
  readonly definitions: Readonly<Record<string, Schema>>;
}

const FAMILY_DESCRIPTIONS: Readonly<Record<TopicFamily, string>> = {
  documents: 'The events of documents (`document-<id>`, issued here) and of this access point\'s own Peppol messages (`transmission-<id>`): submission, AS4 sending, delivery and its failure.',
  received: '`DocumentReceived` alone: a document received for a supplier hosted here, the first event of its copy\'s stream (`document-<id>`). Its other events go to `documents`.',
  reports: 'Reports to tax authorities (`report-<id>`: requested, accepted, rejected, validated, cancelled, amended...) and the chains of records some areas keep (`chain-<id>`).',
  suppliers: 'Suppliers onboarded, changed and deactivated (`supplier-<id>`).',
  participants: 'Peppol participants registered in the directory, their KYC and their SML registration (`participant-<id>`).',
};

/**
 * The events that carry a rendered document whole (docs/consuming-events.md "Rendered documents");
 * every other event names its document by `data.documentId` (and a report by `data.reportId`).
 */
export const RENDERED_DOCUMENT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  DocumentSubmitted: ['xml'],
  DocumentReceived: ['xml'],
  AuthorityReportRequested: ['document', 'peppolCopy'],
  PeppolTransmissionRequested: ['payload'],
};

const RENDERED_DOCUMENT_NOTES: Readonly<Record<string, string>> = {
  DocumentSubmitted: 'Carries the rendered document whole: `data.xml`, its UBL 2.1 as it is sent over Peppol.',
  DocumentReceived: 'Carries the received document whole: `data.xml`, its UBL as it arrived.',
  AuthorityReportRequested:
    'Carries the rendered document whole: `data.document.bytes`, the exact bytes sent to the authority (`mediaType`, `sha256`), and `data.peppolCopy.xml`, the UBL copy for the buyer when there is one.',
  PeppolTransmissionRequested: 'Carries the Message Level Status it sends whole: `data.payload` (XML).',
};

const REFERENCE_NOTE = 'Carries no rendered document: it names it by `data.documentId` (the document\'s `DocumentSubmitted` or `DocumentReceived` carries its XML).';

/** What the document says of one deployment: its topic prefix by default. */
export interface AsyncApiOptions {
  /** `KAFKA_TOPIC_PREFIX` of the deployment (the `prefix` parameter's default). */
  readonly prefix: string;
  /** `KAFKA_MAX_MESSAGE_BYTES` of the deployment (topic `max.message.bytes`; default 32 MiB). */
  readonly maxMessageBytes?: number;
  /** The API's version, as in the OpenAPI document. */
  readonly version?: string;
  /** Generated schemas (default: the committed event-schemas.json); tests pass others. */
  readonly schemas?: EventSchemas;
}

/**
 * The AsyncAPI document of a registry's published event types. Throws when a published type has no
 * generated schema (`npm run event-schemas` was not run after a new event type).
 */
export function asyncApiDocument(registry: EventRegistry, options: AsyncApiOptions): AsyncApiDocument {
  const schemas = options.schemas ?? (generated as unknown as EventSchemas);
  const kinds = new Map<string, { kind: string; data: Schema }>();
  for (const [kind, types] of Object.entries(schemas.streams)) for (const [type, data] of Object.entries(types)) kinds.set(type, { kind, data });
  const channels: Record<string, { address: string; description: string; parameters: Schema; messages: Record<string, Schema>; bindings: Schema }> = {};
  const messages: Record<string, Schema> = {};
  for (const type of registry.eventTypes) {
    if (!isPublished(registry, type)) continue;
    const entry = kinds.get(type);
    if (!entry) throw new Error(`No generated schema for the published event type ${type}: run \`npm run event-schemas\` (and declare its data in event-data.ts).`);
    const family = registry.topicFor(PREFIX, `${entry.kind}-0`, type).slice(PREFIX.length + 1) as TopicFamily;
    channels[family] ??= {
      address: `${PREFIX}.${family}`,
      description: FAMILY_DESCRIPTIONS[family],
      parameters: { prefix: { description: 'The deployment\'s topic prefix (`KAFKA_TOPIC_PREFIX`).', default: options.prefix, examples: [options.prefix] } },
      messages: {},
      bindings: { kafka: { partitions: DEFAULT_PARTITIONS, topicConfiguration: { 'max.message.bytes': options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES }, bindingVersion: '0.5.0' } },
    };
    channels[family].messages[type] = { $ref: `#/components/messages/${type}` };
    messages[type] = message(registry, type, entry, schemas);
  }
  const families = Object.keys(channels).sort() as TopicFamily[];
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'E-invoicing gateway: Kafka topics',
      version: options.version ?? '0.1.0',
      description:
        'The events internal consumers read from Kafka, as the outbox relay publishes them: one topic per family under the deployment\'s prefix, the key the stream id (the events of one document stay in order), the value the recorded event as JSON. At least once: de-duplicate on `eventId`. See docs/consuming-events.md.',
    },
    defaultContentType: 'application/json',
    channels: Object.fromEntries(families.map((family) => [family, { ...channels[family], messages: sortedKeys(channels[family].messages) }])),
    operations: Object.fromEntries(
      families.map((family) => [
        `receive${family[0].toUpperCase()}${family.slice(1)}`,
        {
          action: 'receive',
          channel: { $ref: `#/channels/${family}` },
          summary: `Read ${PREFIX}.${family} with a consumer group of your own.`,
          messages: Object.keys(sortedKeys(channels[family].messages)).map((type) => ({ $ref: `#/channels/${family}/messages/${type}` })),
        },
      ]),
    ),
    components: {
      messages: sortedKeys(messages),
      schemas: used(messages, componentRefs(schemas.definitions)),
    },
  };
}

/** The address parameter every channel has. */
const PREFIX = '{prefix}';

function isPublished(registry: EventRegistry, type: string): boolean {
  // Published for some events: not `unpublished` by its plug-in (an area's `unpublishedOfArea` leaves the others').
  return registry.published({ type, streamId: '', data: {} });
}

function message(registry: EventRegistry, type: string, { kind, data }: { kind: string; data: Schema }, { metadata, definitions }: EventSchemas): Schema {
  const version = registry.versionOf(type);
  const withheld = registry.unpublishedAreasOf(type);
  const description = [
    describedBy(data, definitions),
    RENDERED_DOCUMENT_NOTES[type] ?? (kind === 'document' || kind === 'report' || kind === 'chain' ? REFERENCE_NOTE : undefined),
    version > 1 ? `Schema version ${version}: messages published before carry an older \`schemaVersion\`; the registry's upcasters lift them (docs/consuming-events.md).` : undefined,
    withheld.length ? `Not published for the events of the areas ${withheld.join(', ')}.` : undefined,
  ].filter(Boolean);
  const streamId = { type: 'string', pattern: `^${kind}-`, description: 'The stream the event belongs to, `<kind>-<id>`.', examples: [`${kind}-0192f3a4-6c1e-7d2b-9a8f-3e5d7c9b1a20`] };
  return {
    name: type,
    title: type,
    summary: `${type}, schema version ${version}, on stream kind \`${kind}\`.`,
    description: description.join('\n\n'),
    contentType: 'application/json',
    'x-schema-version': version,
    headers: {
      type: 'object',
      required: [EVENT_HEADERS.eventId, EVENT_HEADERS.type, EVENT_HEADERS.streamKind],
      properties: {
        [EVENT_HEADERS.eventId]: { type: 'string', format: 'uuid', description: 'The event\'s id (`eventId`): de-duplicate on it.' },
        [EVENT_HEADERS.type]: { type: 'string', const: type, description: 'The event\'s type: skip what you do not handle without decoding the value.' },
        [EVENT_HEADERS.streamKind]: { type: 'string', const: kind, description: 'The kind of its stream (`streamId` up to its first dash).' },
        [EVENT_HEADERS.area]: { type: 'string', description: 'The event\'s area (`be`, `my`, `pl`...): `data.area`, else the area owning its stream kind; absent when it has none.', examples: ['be'] },
        traceparent: { type: 'string', description: 'W3C trace context of the span that caused the event, when traces are on.' },
      },
    },
    payload: {
      type: 'object',
      description: 'The recorded event as JSON (libs/domain/src/infrastructure/kafka/codec.ts).',
      required: ['eventId', 'streamId', 'streamPosition', 'globalPosition', 'type', 'schemaVersion', 'data', 'metadata', 'recordedAt'],
      properties: {
        eventId: { type: 'string', format: 'uuid', description: 'Unique id of this event, the same on every delivery of it: consumers de-duplicate on it.' },
        streamId,
        streamPosition: { type: 'integer', minimum: 1, description: '1-based position in its stream: the order of the stream\'s events.' },
        globalPosition: { type: 'string', pattern: '^[0-9]+$', description: 'Position in the whole store; informational, never a cursor (late commits).' },
        type: { type: 'string', const: type },
        schemaVersion: { type: 'integer', minimum: 1, maximum: version, description: `The shape of \`data\`: ${version} now; an older one on messages published before.` },
        data: componentRefs(data),
        metadata: componentRefs(metadata),
        recordedAt: { type: 'string', format: 'date-time', description: 'When it was appended (ISO 8601, UTC).' },
      },
    },
    bindings: { kafka: { key: { ...streamId, description: 'The stream id: the events of one stream go to one partition, in order.' }, bindingVersion: '0.5.0' } },
  };
}

/** The TSDoc of an event's data type, as the generator kept it. */
function describedBy(data: Schema, definitions: EventSchemas['definitions']): string | undefined {
  const ref = typeof data.$ref === 'string' ? definitions[data.$ref.replace('#/definitions/', '')] : data;
  return typeof ref?.description === 'string' ? ref.description : undefined;
}

/** The generator's `#/definitions/X` as the document's `#/components/schemas/X`. */
function componentRefs<T>(node: T): T {
  if (Array.isArray(node)) return node.map(componentRefs) as T;
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? value.replace('#/definitions/', '#/components/schemas/') : componentRefs(value)]),
    ) as T;
  }
  return node;
}

/** Only the schemas a message refers to, directly or through another schema (not the unpublished types' data). */
function used(messages: Record<string, Schema>, schemas: Record<string, Schema>): Record<string, Schema> {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        const name = key === '$ref' && typeof value === 'string' ? value.replace('#/components/schemas/', '') : undefined;
        if (name === undefined) visit(value);
        else if (!names.has(name)) {
          names.add(name);
          visit(schemas[name]);
        }
      }
    }
  };
  visit(messages);
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => names.has(name)).sort(([a], [b]) => a.localeCompare(b)));
}

function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

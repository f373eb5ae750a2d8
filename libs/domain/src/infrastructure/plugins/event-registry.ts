import { AppError } from '../../errors';
import { type RecordedEvent, streamKind } from '../../events';
import type { ConstraintErrorMap, EventPlugin, EventProjector, EventSchema, SqlMigration, TopicFamily } from '../../plugin';
import type { Projector, UnitOfWork } from '../eventstore/unit-of-work';
import { reportingPlugin } from '../projections/authority-reports';
import { corePlugin } from '../projections/read-models';

/**
 * The plug-ins of one app put together: who projects which event type, which topic each stream
 * kind goes to, which read-model constraints mean what, and the migrations. Built once at start;
 * `buildEventRegistry` refuses a contradictory or incomplete set, so a process with a missing
 * piece never starts.
 */
export interface EventRegistry {
  /** Projects an event (inside its append's transaction); an undeclared type fails the append. */
  readonly projector: Projector;
  /** The topic of an event under a prefix: its type's own family if declared (`eventTopics`), else its stream kind's; an undeclared stream kind fails the append. */
  topicFor(prefix: string, streamId: string, type?: string): string;
  readonly constraintErrors: ConstraintErrorMap;
  /** Every plug-in's SQL migrations (the platform's own TypeORM classes are added by data-source.ts). */
  readonly migrations: readonly SqlMigration[];
  /** Event types declared, for diagnostics and tests. */
  readonly eventTypes: readonly string[];
  /** Stream kinds declared. */
  readonly streamKinds: readonly string[];
  /**
   * The area of an event, for the Kafka `x-area` header (a worker skips other areas' events without
   * decoding them): `data.area` when the event states it, else the area owning its stream kind.
   */
  areaOf(event: Pick<RecordedEvent, 'streamId' | 'data'>): string | undefined;
  /** The schema version new events of `type` are written with (1 unless a plug-in declares more). */
  versionOf(type: string): number;
  /** The event with its data in the current shape of its type (upcasters applied in order); the same object when current. */
  upcast(event: RecordedEvent): RecordedEvent;
  /**
   * False for the types a plug-in declares `unpublished`, and for an area's events of the shared types
   * its plug-in declares `unpublishedOfArea` (no outbox row, never on Kafka).
   */
  published(event: Pick<RecordedEvent, 'type' | 'streamId' | 'data'>): boolean;
  /** The areas whose events of `type` are not published (`unpublishedOfArea`), sorted; empty for most types. For the AsyncAPI document. */
  unpublishedAreasOf(type: string): readonly string[];
}

const FAMILIES: readonly TopicFamily[] = ['documents', 'received', 'reports', 'suppliers', 'participants'];
const MIGRATION_NAME = /^[A-Za-z][A-Za-z0-9]*\d{13}$/;

function invalid(message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('internal', 'REGISTRY.INVALID', message, { retriable: false, details });
}

/** Puts plug-ins together and checks them: each event type, stream kind, constraint and migration has one owner. */
export function buildEventRegistry(plugins: readonly EventPlugin[]): EventRegistry {
  const projectors = new Map<string, { plugin: string; project: EventProjector | null }>();
  const streams = new Map<string, { plugin: string; family: TopicFamily; area?: string }>();
  const typeTopics = new Map<string, TopicFamily>();
  const constraintErrors: Record<string, ConstraintErrorMap[string]> = {};
  const migrations = new Map<string, SqlMigration>();
  const schemas = new Map<string, EventSchema>();
  const unpublished = new Set<string>();
  /** By area: the shared types not published for its events. */
  const unpublishedOfArea = new Map<string, Set<string>>();
  for (const plugin of plugins) {
    if (plugin.unpublishedOfArea?.length) {
      if (!plugin.area) throw invalid(`${plugin.name} declares unpublishedOfArea but no area.`);
      unpublishedOfArea.set(plugin.area, new Set([...(unpublishedOfArea.get(plugin.area) ?? []), ...plugin.unpublishedOfArea]));
    }
    for (const type of plugin.unpublished ?? []) {
      if (!(type in plugin.projectors)) throw invalid(`${plugin.name} declares ${type} unpublished but not as its event type.`, { type });
      unpublished.add(type);
    }
    for (const [type, schema] of Object.entries(plugin.schemas ?? {})) {
      if (!projectors.has(type) && !(type in plugin.projectors)) throw invalid(`Schema of ${type} (${plugin.name}) for an event type it does not declare.`, { type });
      for (let version = 1; version < schema.current; version += 1) {
        if (typeof schema.upcasters[version] !== 'function') throw invalid(`${type} has no upcaster from version ${version} (${plugin.name}).`, { type, version });
      }
      schemas.set(type, schema);
    }
    for (const [type, project] of Object.entries(plugin.projectors)) {
      const owner = projectors.get(type);
      if (owner) throw invalid(`Event type ${type} is declared by both ${owner.plugin} and ${plugin.name}.`, { type });
      if (project !== null && typeof project !== 'function') throw invalid(`Event type ${type} of ${plugin.name} has no projector.`, { type });
      projectors.set(type, { plugin: plugin.name, project });
    }
    for (const [type, family] of Object.entries(plugin.eventTopics ?? {})) {
      if (!(type in plugin.projectors)) throw invalid(`${plugin.name} gives ${type} a topic but does not declare that event type.`, { type });
      if (!FAMILIES.includes(family)) throw invalid(`Event type ${type} of ${plugin.name} has no topic ("${family}").`, { type });
      typeTopics.set(type, family);
    }
    for (const [kind, family] of Object.entries(plugin.streams)) {
      const owner = streams.get(kind);
      if (owner) throw invalid(`Stream kind ${kind} is declared by both ${owner.plugin} and ${plugin.name}.`, { kind });
      if (!FAMILIES.includes(family)) throw invalid(`Stream kind ${kind} of ${plugin.name} has no topic ("${family}").`, { kind });
      if (kind.includes('-')) throw invalid(`Stream kind ${kind} of ${plugin.name} contains a dash (ids are <kind>-<id>).`, { kind });
      streams.set(kind, { plugin: plugin.name, family, area: plugin.area });
    }
    for (const [constraint, map] of Object.entries(plugin.constraintErrors ?? {})) {
      if (constraintErrors[constraint]) throw invalid(`Constraint ${constraint} is mapped twice (${plugin.name}).`, { constraint });
      constraintErrors[constraint] = map;
    }
    for (const migration of plugin.migrations ?? []) {
      if (!MIGRATION_NAME.test(migration.name)) throw invalid(`Migration ${migration.name} of ${plugin.name} must end in a 13-digit timestamp.`);
      if (migrations.has(migration.name)) throw invalid(`Migration ${migration.name} is declared twice (${plugin.name}).`);
      migrations.set(migration.name, migration);
    }
  }
  for (const [area, types] of unpublishedOfArea) {
    for (const type of types) if (!projectors.has(type)) throw invalid(`Area ${area} declares ${type} unpublished for its events, but no plug-in declares that type.`, { type });
  }
  const projector: Projector = async (uow: UnitOfWork, event: RecordedEvent) => {
    const entry = projectors.get(event.type);
    if (!entry) {
      throw new AppError('internal', 'REGISTRY.UNKNOWN_EVENT_TYPE', `No plug-in declares the event type ${event.type}.`, {
        retriable: false,
        details: { type: event.type, streamId: event.streamId },
      });
    }
    if (entry.project) await entry.project(uow, event);
  };
  return {
    projector,
    topicFor(prefix, streamId, type) {
      const kind = streamKind(streamId);
      const entry = streams.get(kind);
      if (!entry) {
        throw new AppError('internal', 'KAFKA.UNKNOWN_STREAM_KIND', `No topic for stream ${streamId} (kind "${kind}").`, {
          retriable: false,
          details: { streamId, kind },
        });
      }
      // As topicNames(prefix) names them: `<prefix>.documents`, `<prefix>.received`, `<prefix>.reports`, `<prefix>.suppliers`, `<prefix>.participants`.
      return `${prefix}.${(type !== undefined && typeTopics.get(type)) || entry.family}`;
    },
    constraintErrors,
    migrations: [...migrations.values()].sort((a, b) => timestampOf(a.name) - timestampOf(b.name)),
    areaOf(event) {
      const stated = (event.data as { area?: unknown }).area;
      return typeof stated === 'string' ? stated : streams.get(streamKind(event.streamId))?.area;
    },
    versionOf: (type) => schemas.get(type)?.current ?? 1,
    published(event) {
      if (unpublished.has(event.type)) return false;
      if (!unpublishedOfArea.size) return true;
      const area = (event.data as { area?: unknown }).area;
      return !(typeof area === 'string' && unpublishedOfArea.get(area)?.has(event.type));
    },
    unpublishedAreasOf: (type) => [...unpublishedOfArea].filter(([, types]) => types.has(type)).map(([area]) => area).sort(),
    upcast(event) {
      const schema = schemas.get(event.type);
      if (!schema || event.schemaVersion >= schema.current) return event;
      let data = event.data as Record<string, unknown>;
      for (let version = event.schemaVersion; version < schema.current; version += 1) data = schema.upcasters[version](data);
      return { ...event, data, schemaVersion: schema.current };
    },
    eventTypes: [...projectors.keys()].sort(),
    streamKinds: [...streams.keys()].sort(),
  };
}

function timestampOf(name: string): number {
  return Number(name.slice(-13));
}

/** The registry of an app of this platform: the platform's plug-ins first, then the areas' (`areaEventPlugins()`). */
export function platformEventRegistry(areaPlugins: readonly EventPlugin[]): EventRegistry {
  return buildEventRegistry([corePlugin, reportingPlugin, ...areaPlugins]);
}

/** The EventStore options an app's registry gives (topics under `prefix`, projections, constraints, schemas). */
export function eventStoreOptions(registry: EventRegistry, prefix: string) {
  return {
    topicFor: (streamId: string, type: string) => registry.topicFor(prefix, streamId, type),
    projector: registry.projector,
    constraintErrors: registry.constraintErrors,
    schemas: { versionOf: registry.versionOf, upcast: registry.upcast },
    published: registry.published,
  };
}

import type { EventPlugin, RecordedEvent } from '../../index';
import type { UnitOfWork } from '../eventstore/unit-of-work';
import { buildEventRegistry, platformEventRegistry } from './event-registry';

const event = (type: string, streamId = 'document-1'): RecordedEvent => ({
  eventId: 'e1',
  streamId,
  streamPosition: 1,
  globalPosition: '1',
  type,
  schemaVersion: 1,
  data: {},
  metadata: { tenantId: 't' },
  recordedAt: new Date(0).toISOString(),
});

const queries: string[] = [];
const uow = {
  query: async (sql: string) => {
    queries.push(sql);
    return [];
  },
} as unknown as UnitOfWork;

const toy = (overrides: Partial<EventPlugin> = {}): EventPlugin => ({
  name: 'area:toy',
  streams: { toy: 'documents' },
  projectors: { ToyReported: async (context) => void (await context.query('toy')), ToyPinged: null },
  migrations: [{ name: 'ToyReports1732200009999', up: ['CREATE TABLE toy ()'], down: ['DROP TABLE toy'] }],
  ...overrides,
});

describe('#8 the event registry', () => {
  it('publishes every type but those a plug-in declares unpublished, and refuses one it does not declare', () => {
    const registry = platformEventRegistry([toy()]);
    const of = (type: string, data: object = {}) => ({ type, streamId: 'report-1', data });
    expect(registry.published(of('AuthorityReportRequested'))).toBe(true);
    expect(registry.published(of('AuthorityReportAttempted'))).toBe(false);
    expect(registry.published(of('AuthorityReportPolled'))).toBe(false);
    expect(() => buildEventRegistry([toy({ unpublished: ['SomethingElse'] })])).toThrow(/unpublished/);
  });

  it('leaves out a shared type for the events of an area that declares it unpublishedOfArea (its batched reports\' requests), not for other areas', () => {
    const registry = platformEventRegistry([toy({ area: 'toy', unpublishedOfArea: ['AuthorityReportRequested'] })]);
    expect(registry.published({ type: 'AuthorityReportRequested', streamId: 'report-1', data: { area: 'toy' } })).toBe(false);
    expect(registry.published({ type: 'AuthorityReportRequested', streamId: 'report-2', data: { area: 'jo' } })).toBe(true);
    expect(registry.published({ type: 'AuthorityReportAccepted', streamId: 'report-1', data: { area: 'toy' } })).toBe(true);
    expect(() => platformEventRegistry([toy({ unpublishedOfArea: ['AuthorityReportRequested'] })])).toThrow(/no area/);
    expect(() => platformEventRegistry([toy({ area: 'toy', unpublishedOfArea: ['NoSuchType'] })])).toThrow(/no plug-in declares/);
  });

  it('maps the core stream kinds and an area stream kind to their topics', () => {
    const registry = platformEventRegistry([toy()]);
    expect(registry.topicFor('einvoice', 'document-7d0b8e52')).toBe('einvoice.documents');
    expect(registry.topicFor('einvoice', 'supplier-0b7f3a9e')).toBe('einvoice.suppliers');
    expect(registry.topicFor('einvoice', 'participant-9c1d')).toBe('einvoice.participants');
    expect(registry.topicFor('t1', 'toy-42')).toBe('t1.documents');
  });

  it('#11 puts an event type with a topic of its own there (DocumentReceived on received), the stream\'s other types on the stream kind\'s', () => {
    const registry = platformEventRegistry([toy()]);
    expect(registry.topicFor('einvoice', 'document-7d0b8e52', 'DocumentReceived')).toBe('einvoice.received');
    expect(registry.topicFor('einvoice', 'document-7d0b8e52', 'DocumentSubmitted')).toBe('einvoice.documents');
    expect(registry.topicFor('einvoice', 'document-7d0b8e52', 'DocumentDelivered')).toBe('einvoice.documents');
    expect(registry.topicFor('t1', 'toy-42', 'ToyReported')).toBe('t1.documents');
    expect(() => buildEventRegistry([toy({ eventTopics: { SomethingElse: 'received' } })])).toThrow(/does not declare/);
    expect(() => buildEventRegistry([toy({ eventTopics: { ToyReported: 'nowhere' as never } })])).toThrow(/has no topic/);
  });

  it('tells the area of an event: stated in its data, else the owner of its stream kind', () => {
    const registry = platformEventRegistry([toy({ area: 'toy' })]);
    expect(registry.areaOf({ streamId: 'document-1', data: { area: 'be' } })).toBe('be');
    expect(registry.areaOf({ streamId: 'toy-1', data: {} })).toBe('toy');
    expect(registry.areaOf({ streamId: 'participant-1', data: {} })).toBeUndefined();
  });

  it('refuses an undeclared stream kind with a non-retriable error', () => {
    expect(() => platformEventRegistry([]).topicFor('einvoice', 'webhook-1')).toThrow(
      expect.objectContaining({ code: 'KAFKA.UNKNOWN_STREAM_KIND', retriable: false }),
    );
  });

  it('projects declared types, skips those declared without a read model, refuses undeclared ones', async () => {
    const registry = platformEventRegistry([toy()]);
    queries.length = 0;
    await registry.projector(uow, event('ToyReported', 'toy-1'));
    await registry.projector(uow, event('ToyPinged', 'toy-1'));
    expect(queries).toEqual(['toy']);
    await expect(registry.projector(uow, event('ToyForgotten', 'toy-1'))).rejects.toMatchObject({ code: 'REGISTRY.UNKNOWN_EVENT_TYPE' });
  });

  it('fails to build when two plug-ins claim one event type or stream kind', () => {
    expect(() => platformEventRegistry([toy({ projectors: { DocumentSubmitted: null } })])).toThrow(/DocumentSubmitted is declared by both core and area:toy/);
    expect(() => platformEventRegistry([toy({ streams: { document: 'documents' } })])).toThrow(/Stream kind document is declared by both/);
  });

  it('fails to build when a stream kind has no topic or a projector is not a function', () => {
    expect(() => buildEventRegistry([toy({ streams: { toy: 'toys' as never } })])).toThrow(/Stream kind toy of area:toy has no topic/);
    expect(() => buildEventRegistry([toy({ projectors: { ToyReported: 'yes' as never } })])).toThrow(/ToyReported of area:toy has no projector/);
  });

  it('orders the areas\' migrations by timestamp and refuses a name without one', () => {
    const early = { name: 'Early1732200000050', up: [], down: [] };
    const registry = buildEventRegistry([toy(), toy({ name: 'area:b', streams: {}, projectors: {}, migrations: [early] })]);
    expect(registry.migrations.map((m) => m.name)).toEqual(['Early1732200000050', 'ToyReports1732200009999']);
    expect(() => buildEventRegistry([toy({ migrations: [{ name: 'NoTimestamp', up: [], down: [] }] })])).toThrow(/13-digit timestamp/);
  });

  it('refuses to build a registry whose upcaster chain has a gap, and lifts events through a complete one', () => {
    expect(() =>
      buildEventRegistry([{ name: 'x', streams: {}, projectors: { A: null }, schemas: { A: { current: 3, upcasters: { 1: (d) => d } } } }]),
    ).toThrow(/A has no upcaster from version 2/);
    const lifted = buildEventRegistry([
      { name: 'x', streams: {}, projectors: { A: null }, schemas: { A: { current: 3, upcasters: { 1: (d) => ({ ...d, one: true }), 2: (d) => ({ ...d, two: true }) } } } },
    ]).upcast({ ...event('A'), schemaVersion: 1 });
    expect(lifted).toMatchObject({ schemaVersion: 3, data: { one: true, two: true } });
  });
});

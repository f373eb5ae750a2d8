import { type RecordedEvent, checkWebhookEvents } from '@einvoice/domain';
import { toyDefinition } from '../toy/definition';
import type { AreaDefinition } from '../registry/area';
import { allWebhookEventNames, areaEventPlugins, areaLargeBodies, areaOf, bodyLimitFor, findArea, largestBodyLimit, registeredAreas, webhookSources } from './area-list';
import { AREA_CODES, AREA_NAMES } from './area-names';
import { type ReportWebhookSource, type ReportedDocumentRow, type WebhookSource, type WebhookSourceContext, reportedDocumentRows } from '../registry/webhooks';

describe('#8 the area registry', () => {
  it('lists every area once, with a versioned rule set and its route prefix', () => {
    const codes = registeredAreas({}).map((a) => a.code);
    expect(codes).toEqual(expect.arrayContaining(['be', 'de', 'sg', 'my']));
    for (const area of registeredAreas({})) expect(area.ruleSetId).toMatch(/^[a-z0-9-]+:[a-z-]+:\d[\w.]*$/);
    expect(areaOf('my').routePrefix).toBe('api/einvoice');
    expect(findArea('xx')).toBeUndefined();
  });

  it('serves the areas that deliver over Peppol at submission (exchange) through the pipeline\'s codecs', () => {
    const delivering = registeredAreas({}).filter((area) => area.exchange);
    expect(delivering.map((area) => area.code)).toEqual(expect.arrayContaining(['be', 'de', 'sg']));
    for (const area of delivering) expect([area.code, Boolean(area.onboarding && area.documents)]).toEqual([area.code, true]);
  });

  it('#50 serves the areas a browser bundle offers (area-names.ts): same codes, order and names; the test-only ones besides', () => {
    expect(registeredAreas({}).map((area) => [area.code, area.name])).toEqual(Object.entries(AREA_NAMES));
    expect(registeredAreas({ EINVOICE_TEST_AREAS: '1' }).filter((area) => !area.testOnly).map((area) => area.code)).toEqual(AREA_CODES);
  });

  it('keeps the test suite\'s own areas out unless EINVOICE_TEST_AREAS=1', () => {
    const production = registeredAreas({});
    const tests = registeredAreas({ EINVOICE_TEST_AREAS: '1' });
    expect(production.every((a) => !a.testOnly)).toBe(true);
    expect(tests.length).toBeGreaterThanOrEqual(production.length);
  });

  it('brings the areas\' own events to the event store (Malaysia: its streams, read models, tables)', () => {
    const [my] = areaEventPlugins(registeredAreas({}));
    expect(my.name).toBe('area:my');
    expect(my.streams).toEqual({ myinvois: 'documents' });
    expect(my.migrations?.map((m) => m.name)).toContain('MyInvoisDocuments1732200000006');
  });

  it('gives an area\'s own paths its larger body limit, and every other path the default', () => {
    const list = areaLargeBodies(registeredAreas({}));
    const MiB = 1024 * 1024;
    expect(largestBodyLimit(MiB, list)).toBe(30 * MiB);
    expect(bodyLimitFor('/v1/participants/abc/documents', MiB, list)).toBe(30 * MiB);
    expect(bodyLimitFor('/v1/unified/participants/abc/documents?x=1', MiB, list)).toBe(30 * MiB);
    expect(bodyLimitFor('/v1/participants', MiB, list)).toBe(30 * MiB);
    expect(bodyLimitFor('/v1/participantsX', MiB, list)).toBe(MiB);
    expect(bodyLimitFor('/be/einvoice/generate/invoice', MiB, list)).toBe(MiB);
    expect(bodyLimitFor('/api/einvoice/generate/invoice/bulk', 8 * MiB, list)).toBe(8 * MiB);
  });

  it('holds a route of the gateway\'s own to its limit the same way (#46: the AS4 engine\'s inbound callback)', () => {
    const MiB = 1024 * 1024;
    const limits = [...areaLargeBodies(registeredAreas({})), { bytes: 100 * MiB, pathPrefixes: ['internal/peppol/inbound'] }];
    expect(largestBodyLimit(MiB, limits)).toBe(100 * MiB);
    expect(bodyLimitFor('/internal/peppol/inbound', MiB, limits)).toBe(100 * MiB);
    expect(bodyLimitFor('/internal/peppol/inboundX', MiB, limits)).toBe(MiB);
    expect(bodyLimitFor('/v1/participants/abc/documents', MiB, limits)).toBe(30 * MiB);
  });
});

describe('webhook event names per area (README "Webhooks")', () => {
  const namesOf = (code: string) => areaOf(code).webhookEvents;

  it('accepts the MyInvois lifecycle and the Peppol received event for a Malaysian supplier', () => {
    const all = ['MyInvoisValid', 'MyInvoisInvalid', 'MyInvoisRejected', 'MyInvoisCancelled', 'MyInvoisRejectedByBuyer', 'PeppolReceived', 'DocumentReceived'];
    expect(checkWebhookEvents(namesOf('my'), all)).toEqual([]);
  });

  it('refuses an unknown name as events[i] FIELD.INVALID_VALUE, naming what is allowed', () => {
    expect(checkWebhookEvents(namesOf('my'), ['MyInvoisValid', 'MyInvoisSubmitted'])).toEqual([
      {
        path: 'events[1]',
        code: 'FIELD.INVALID_VALUE',
        message: expect.stringContaining('MyInvoisValid, MyInvoisInvalid, MyInvoisRejected, MyInvoisCancelled, MyInvoisRejectedByBuyer'),
        severity: 'error',
      },
    ]);
  });

  it('gives Peppol areas only the received event: a MyInvois name is refused there', () => {
    expect(checkWebhookEvents(namesOf('de'), ['PeppolReceived', 'DocumentReceived'])).toEqual([]);
    const refused = checkWebhookEvents(namesOf('de'), ['DocumentReceived', 'MyInvoisValid']);
    expect(refused.map((i) => `${i.path} ${i.code}`)).toEqual(['events[1] FIELD.INVALID_VALUE']);
    expect(namesOf('sg')).toEqual(['DocumentReceived', 'PeppolReceived']);
    expect(allWebhookEventNames()).toEqual(expect.arrayContaining(['PeppolReceived', 'MyInvoisValid']));
  });
});

describe('#8 webhooks of the shared report events, per area (registry webhookSources)', () => {
  const at = '2026-11-22T01:00:00.000Z';
  const rowOf = (id: string, area: string): ReportedDocumentRow => ({
    id, area, supplier_id: `supplier-${area}`, tenant_id: 't', direction: 'outgoing', document_number: `N-${id}`, document_type: 'invoice', report_state: 'cancelled', authority: null, created_at: new Date(at),
  });
  // The documents rows committed with the events, read by the event's documentId.
  const rows = new Map([['d-xa', rowOf('d-xa', 'xa')], ['d-xb', rowOf('d-xb', 'xb')], ['d-xc', rowOf('d-xc', 'xc')]]);
  const context: WebhookSourceContext = {
    query: async () => [],
    env: {},
    reportedDocument: async (documentId) => rows.get(documentId),
  };
  // Each area names its webhook after itself and what it saw, so a test tells which area answered.
  const said = (area: string): ReportWebhookSource => async (event, document) => [
    { webhookId: event.eventId, name: `${area}:${event.type}:${document.document_number}`, supplierId: document.supplier_id, body: '{}' },
  ];
  const area = (code: string, extra: Partial<AreaDefinition>): AreaDefinition => ({ ...toyDefinition, code, routePrefix: `${code}/einvoice`, webhooks: undefined, reportWebhooks: undefined, ...extra });
  const xa = area('xa', { reportWebhooks: { AuthorityReportCancelled: said('xa'), AuthorityReportValidated: said('xa') } });
  const xb = area('xb', { reportWebhooks: { AuthorityReportCancelled: said('xb') } });
  const xc = area('xc', {});
  const cancelled = (documentId: string): RecordedEvent => ({
    eventId: `e-${documentId}`, streamId: 'report-r', streamPosition: 5, globalPosition: '1', type: 'AuthorityReportCancelled', schemaVersion: 1,
    data: { reportId: 'r', documentId, cancelledAt: at }, metadata: { tenantId: 't' }, recordedAt: at,
  });

  it('one source per report type any area declares, routing each event to the area of its document\'s row', async () => {
    const sources = webhookSources([xa, xb, xc]);
    expect([...sources.keys()].sort()).toEqual(['AuthorityReportCancelled', 'AuthorityReportValidated']);
    const source = sources.get('AuthorityReportCancelled')!;
    expect(await source(cancelled('d-xa'), context)).toEqual([{ webhookId: 'e-d-xa', name: 'xa:AuthorityReportCancelled:N-d-xa', supplierId: 'supplier-xa', body: '{}' }]);
    expect((await source(cancelled('d-xb'), context)).map((w) => w.name)).toEqual(['xb:AuthorityReportCancelled:N-d-xb']);
  });

  it('an area without report webhooks gets none of its documents\' events, nor does an event whose document has no row', async () => {
    const source = webhookSources([xa, xb, xc]).get('AuthorityReportCancelled')!;
    expect(await source(cancelled('d-xc'), context)).toEqual([]);
    expect(await source(cancelled('d-none'), context)).toEqual([]);
    const validatedOfXb = { ...cancelled('d-xb'), type: 'AuthorityReportValidated', data: { reportId: 'r', documentId: 'd-xb', receipt: {}, validatedAt: at } };
    expect(await webhookSources([xa, xb]).get('AuthorityReportValidated')!(validatedOfXb, context)).toEqual([]);
  });

  it('still gives each of an area\'s own event types to one area only, and no own source may take a shared report type', () => {
    const own: WebhookSource = async () => [];
    expect(() => webhookSources([area('xa', { webhooks: { ToyThing: own } }), area('xb', { webhooks: { ToyThing: own } })])).toThrow('Two areas make webhooks of ToyThing.');
    expect(() => webhookSources([area('xa', { webhooks: { AuthorityReportCancelled: own } }), xb])).toThrow('Two areas make webhooks of AuthorityReportCancelled.');
  });
});

describe('#11 the rows of reported documents (reportedDocumentRows)', () => {
  it('reads every asked row in one query, each id once, and answers in the order asked (undefined where none)', async () => {
    const calls: unknown[][] = [];
    const query = async <T>(_sql: string, params?: unknown[]) => {
      calls.push(params ?? []);
      return [{ id: 'd-2', area: 'xa' }, { id: 'd-1', area: 'xb' }] as T[];
    };
    const rows = await reportedDocumentRows(query, ['d-1', 'd-3', 'd-2', 'd-1']);
    expect(calls).toEqual([[['d-1', 'd-3', 'd-2']]]);
    expect(rows.map((row) => row?.area)).toEqual(['xb', undefined, 'xa', 'xb']);
  });
});

import { checkWebhookEvents } from '@einvoice/domain';
import { allWebhookEventNames, areaEventPlugins, areaOf, bodyLimitFor, findArea, largestBodyLimit, registeredAreas } from './registry';

describe('#8 the area registry', () => {
  it('lists every area once, with a versioned rule set and its route prefix', () => {
    const codes = registeredAreas({}).map((a) => a.code);
    expect(codes).toEqual(expect.arrayContaining(['be', 'de', 'sg', 'my']));
    for (const area of registeredAreas({})) expect(area.ruleSetId).toMatch(/^[a-z0-9-]+:[a-z-]+:\d[\w.]*$/);
    expect(areaOf('my').routePrefix).toBe('api/einvoice');
    expect(findArea('xx')).toBeUndefined();
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
    const list = registeredAreas({});
    const MiB = 1024 * 1024;
    expect(largestBodyLimit(MiB, list)).toBe(30 * MiB);
    expect(bodyLimitFor('/v1/participants/abc/documents', MiB, list)).toBe(30 * MiB);
    expect(bodyLimitFor('/v1/unified/participants/abc/documents?x=1', MiB, list)).toBe(30 * MiB);
    expect(bodyLimitFor('/v1/participants', MiB, list)).toBe(30 * MiB);
    expect(bodyLimitFor('/v1/participantsX', MiB, list)).toBe(MiB);
    expect(bodyLimitFor('/be/einvoice/generate/invoice', MiB, list)).toBe(MiB);
    expect(bodyLimitFor('/api/einvoice/generate/invoice/bulk', 8 * MiB, list)).toBe(8 * MiB);
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

import type { RecordedEvent } from '../../events';
import { decodeEvent, encodeEvent, encodedEventText, isEncoded } from './codec';

describe('an event value written around its data\'s text (the outbox relay\'s, issue 11)', () => {
  const event: RecordedEvent = {
    eventId: '0193f5a0-0000-7000-8000-000000000001', streamId: 'document-0193f5a0-0000-7000-8000-000000000002', streamPosition: 3,
    globalPosition: '9007199254740993', type: 'DocumentSubmitted', schemaVersion: 2,
    data: { area: 'be', amount: '100.10', lines: [{ n: 1, text: 'Ünïcode "quoted" <xml/>\n' }], none: null },
    metadata: { tenantId: 't', correlationId: 'c"1', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    recordedAt: '2026-11-28T13:41:02.972Z',
  } as RecordedEvent;

  it('is what encodeEvent writes of the whole event, with the data as given', () => {
    const { data, ...rest } = event;
    expect(encodedEventText(rest, JSON.stringify(data))).toBe(encodeEvent(event));
  });

  it('decodes to the same event from PostgreSQL\'s spaced jsonb text', () => {
    const { data, ...rest } = event;
    const jsonbText = '{"area": "be", "none": null, "lines": [{"n": 1, "text": "Ünïcode \\"quoted\\" <xml/>\\n"}], "amount": "100.10"}';
    const text = encodedEventText(rest, jsonbText);
    expect(decodeEvent(Buffer.from(text))).toEqual(event);
    const encoded = { eventId: event.eventId, streamId: event.streamId, type: event.type, metadata: event.metadata, data: { area: 'be' }, text };
    expect(isEncoded(encoded)).toBe(true);
    expect(isEncoded(event)).toBe(false);
    expect(encodeEvent(encoded)).toBe(text);
    expect(JSON.parse(text).data).toEqual(data);
  });
});

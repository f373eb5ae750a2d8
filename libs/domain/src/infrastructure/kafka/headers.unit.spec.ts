import { describedByEvent, describedByHeaders, eventHeaders } from './headers';
import { recordedEvent } from './test/support';

describe('event headers (#8: decide without decoding the value)', () => {
  const document = recordedEvent('document-7d0b8e52-0d7e-4c4a-9a57-6f0a4b1f3c11', 1, { area: 'be' });
  const submission = { ...recordedEvent('myinvois-0b7f3a9e-3c55-4a8f-8d38-2a6f1b9c7e20', 1, { documents: [] }), type: 'MyInvoisDocumentsSubmitted' };

  it('names the event, its type, its stream kind and, from data.area, its area', () => {
    expect(eventHeaders(document)).toEqual({ 'x-event-id': document.eventId, 'x-event-type': 'DocumentSubmitted', 'x-stream-kind': 'document', 'x-area': 'be' });
    expect(eventHeaders(submission)).toEqual({ 'x-event-id': submission.eventId, 'x-event-type': 'MyInvoisDocumentsSubmitted', 'x-stream-kind': 'myinvois' });
  });

  it('finds the area the way it is told (the area registry supplies it)', () => {
    const areaOf = (event: { streamId: string }) => (event.streamId.startsWith('myinvois-') ? 'my' : undefined);

    expect(eventHeaders(submission, areaOf)['x-area']).toBe('my');
    expect(eventHeaders(document, areaOf)).not.toHaveProperty('x-area');
  });

  it('reads back what it wrote, as kafkajs hands headers over (Buffers); nothing without x-event-type', () => {
    const asReceived = Object.fromEntries(Object.entries(eventHeaders(document)).map(([name, value]) => [name, Buffer.from(value)]));

    expect(describedByHeaders(asReceived)).toEqual({ type: 'DocumentSubmitted', area: 'be', streamKind: 'document' });
    expect(describedByHeaders({ 'x-event-id': Buffer.from('e1') })).toBeUndefined();
    expect(describedByHeaders(undefined)).toBeUndefined();
    expect(describedByEvent(document)).toEqual(describedByHeaders(asReceived));
  });
});

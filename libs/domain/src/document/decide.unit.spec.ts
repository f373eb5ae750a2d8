import { specification } from '../test/given-when-then';
import type { DocumentCommand, RecordMessageLevelStatus } from './commands';
import { documentDecider } from './decide';
import { type DocumentDeliveredData, type DocumentEvent, type DocumentReceivedData, type DocumentSentData, type DocumentSubmittedData, as4MessageId } from './events';

const submitted: DocumentSubmittedData = {
  documentId: 'd-1',
  tenantId: 't-1',
  supplierId: 's-1',
  area: 'be',
  documentNumber: 'INV-1',
  documentType: '380',
  transportMode: 'peppol',
  senderParticipantId: 'iso6523-actorid-upis::9925:be0123456749',
  receiverParticipantId: 'iso6523-actorid-upis::9925:be0202239951',
  fields: {},
  xml: '<Invoice/>',
  submittedAt: '2026-03-15T10:00:00.000Z',
};
const delivered: DocumentDeliveredData = {
  documentId: 'd-1',
  receiverParticipantId: submitted.receiverParticipantId!,
  channel: 'remote',
  messageId: 'm-1@gw',
  mls: { responseCode: 'AP', receivedAt: '2026-03-15T10:00:01.000Z' },
  deliveredAt: '2026-03-15T10:00:01.000Z',
};
const received: DocumentReceivedData = {
  documentId: 'd-2',
  tenantId: 't-2',
  supplierId: 's-2',
  area: 'de',
  documentNumber: 'INV-1',
  documentType: '380',
  senderParticipantId: submitted.senderParticipantId,
  receiverParticipantId: submitted.receiverParticipantId!,
  sourceDocumentId: 'd-1',
  messageId: 'm-1@gw',
  fields: {},
  xml: '<Invoice/>',
  receivedAt: '2026-03-15T10:00:01.000Z',
};

const spec = specification<DocumentCommand, DocumentEvent, ReturnType<typeof documentDecider.evolve>>(documentDecider);

describe('document decider', () => {
  it('given nothing, when SubmitDocument, then DocumentSubmitted', () => {
    spec.given([]).when({ type: 'SubmitDocument', data: submitted }).then([{ type: 'DocumentSubmitted', data: submitted }]);
  });

  it('given a submitted document, when SubmitDocument again, then DOCUMENT.ALREADY_EXISTS', () => {
    spec.given([{ type: 'DocumentSubmitted', data: submitted }]).when({ type: 'SubmitDocument', data: submitted }).thenThrows('DOCUMENT.ALREADY_EXISTS');
  });

  it('given a submitted document, when RecordDelivery, then DocumentDelivered', () => {
    spec
      .given([{ type: 'DocumentSubmitted', data: submitted }])
      .when({ type: 'RecordDelivery', data: delivered })
      .then([{ type: 'DocumentDelivered', data: delivered }]);
  });

  it('#2 given a delivered document, when RecordDelivery again (a redelivered Kafka message), then nothing new', () => {
    spec
      .given([
        { type: 'DocumentSubmitted', data: submitted },
        { type: 'DocumentDelivered', data: delivered },
      ])
      .when({ type: 'RecordDelivery', data: delivered })
      .then([]);
  });

  it('given nothing, when RecordDelivery, then DOCUMENT.NOT_OUTGOING (not retriable: dead-lettered)', () => {
    spec.given([]).when({ type: 'RecordDelivery', data: delivered }).thenThrows('DOCUMENT.NOT_OUTGOING');
  });

  it('given a received document, when RecordDelivery, then DOCUMENT.NOT_OUTGOING', () => {
    spec.given([{ type: 'DocumentReceived', data: received }]).when({ type: 'RecordDelivery', data: delivered }).thenThrows('DOCUMENT.NOT_OUTGOING');
  });

  it('given nothing, when ReceiveDocument, then DocumentReceived; given it already, then nothing new', () => {
    spec.given([]).when({ type: 'ReceiveDocument', data: received }).then([{ type: 'DocumentReceived', data: received }]);
    spec.given([{ type: 'DocumentReceived', data: received }]).when({ type: 'ReceiveDocument', data: received }).then([]);
  });
});

describe('#8 a failed delivery is recorded, visible, and still deliverable by a replay', () => {
  const failure = {
    documentId: 'd-1',
    receiverParticipantId: submitted.receiverParticipantId,
    reason: { code: 'PEPPOL.REJECTED_BY_RECEIVER', message: 'MLS RE' },
    mls: { responseCode: 'RE' as const, receivedAt: '2026-03-15T10:00:01.000Z' },
    failedAt: '2026-03-15T10:00:01.000Z',
  };
  const failureSpec = specification<DocumentCommand, DocumentEvent, ReturnType<typeof documentDecider.evolve>>(documentDecider);

  it('given a scheduled document, when RecordDeliveryFailure, then DocumentDeliveryFailed; once, not twice', () => {
    failureSpec.given([{ type: 'DocumentSubmitted', data: submitted }]).when({ type: 'RecordDeliveryFailure', data: failure }).then([{ type: 'DocumentDeliveryFailed', data: failure }]);
    failureSpec
      .given([{ type: 'DocumentSubmitted', data: submitted }, { type: 'DocumentDeliveryFailed', data: failure }])
      .when({ type: 'RecordDeliveryFailure', data: failure })
      .then([]);
  });

  it('given a delivered document, a late failure report changes nothing; given a failed one, a replay may deliver it', () => {
    failureSpec
      .given([{ type: 'DocumentSubmitted', data: submitted }, { type: 'DocumentDelivered', data: delivered }])
      .when({ type: 'RecordDeliveryFailure', data: failure })
      .then([]);
    failureSpec
      .given([{ type: 'DocumentSubmitted', data: submitted }, { type: 'DocumentDeliveryFailed', data: failure }])
      .when({ type: 'RecordDelivery', data: delivered })
      .then([{ type: 'DocumentDelivered', data: delivered }]);
  });
});

/** What an MLS AP at 10:00:05 records for d-1 (#46). */
const deliveredByMls: DocumentDeliveredData = {
  documentId: 'd-1',
  receiverParticipantId: 'iso6523-actorid-upis::9925:be0202239951',
  channel: 'remote',
  messageId: as4MessageId('d-1'),
  mls: { responseCode: 'AP', receivedAt: '2026-03-15T10:00:05.000Z' },
  deliveredAt: '2026-03-15T10:00:05.000Z',
};

describe('#46 live Peppol: the AS4 receipt (Sent), then the receiving access point\'s MLS (Delivered or Failed)', () => {
  const liveSpec = specification<DocumentCommand, DocumentEvent, ReturnType<typeof documentDecider.evolve>>(documentDecider);
  const sent: DocumentSentData = {
    documentId: 'd-1',
    receiverParticipantId: submitted.receiverParticipantId!,
    messageId: as4MessageId('d-1'),
    receipt: { refToMessageId: as4MessageId('d-1'), timestamp: '2026-03-15T10:00:01.000Z' },
    sentAt: '2026-03-15T10:00:01.000Z',
  };
  const mls = (responseCode: 'AP' | 'RE'): RecordMessageLevelStatus => ({
    type: 'RecordMessageLevelStatus',
    data: {
      documentId: 'd-1',
      mls: responseCode === 'AP' ? { responseCode, receivedAt: '2026-03-15T10:00:05.000Z' } : { responseCode, reasonCode: 'BV', description: 'BR-CO-15 broken', receivedAt: '2026-03-15T10:00:05.000Z' },
      recordedAt: '2026-03-15T10:00:05.000Z',
    },
  });
  const given = (...events: DocumentEvent[]) => liveSpec.given([{ type: 'DocumentSubmitted', data: submitted }, ...events]);

  it('given a scheduled document, when RecordTransmission, then DocumentSent; a second receipt (a retry) decides nothing', () => {
    given().when({ type: 'RecordTransmission', data: sent }).then([{ type: 'DocumentSent', data: sent }]);
    given({ type: 'DocumentSent', data: sent }).when({ type: 'RecordTransmission', data: sent }).then([]);
  });

  it('given a sent document, when its MLS is AP, then DocumentDelivered over the remote channel with its MessageId and receiver', () => {
    given({ type: 'DocumentSent', data: sent }).when(mls('AP')).then([{ type: 'DocumentDelivered', data: deliveredByMls }]);
  });

  it('given a sent document, when its MLS is RE, then DocumentDeliveryFailed with the receiver\'s reason', () => {
    given({ type: 'DocumentSent', data: sent }).when(mls('RE')).then([{
      type: 'DocumentDeliveryFailed',
      data: { documentId: 'd-1', receiverParticipantId: submitted.receiverParticipantId, reason: { code: 'PEPPOL.REJECTED_BY_RECEIVER', message: 'BR-CO-15 broken' }, mls: mls('RE').data.mls, failedAt: '2026-03-15T10:00:05.000Z' },
    }]);
  });

  it('an MLS that overtook the receipt decides the outcome; the receipt recorded after it decides nothing', () => {
    given().when(mls('AP')).then([{ type: 'DocumentDelivered', data: deliveredByMls }]);
    given({ type: 'DocumentDelivered', data: deliveredByMls }).when({ type: 'RecordTransmission', data: sent }).then([]);
    const rejected = { documentId: 'd-1', receiverParticipantId: null, reason: { code: 'PEPPOL.REJECTED_BY_RECEIVER', message: 'no' }, mls: mls('RE').data.mls, failedAt: '2026-03-15T10:00:05.000Z' };
    given({ type: 'DocumentDeliveryFailed', data: rejected }).when({ type: 'RecordTransmission', data: sent }).then([]);
  });

  it('one MLS per document: a second decides nothing, nor one for a document delivered to a receiver hosted here', () => {
    given({ type: 'DocumentSent', data: sent }, { type: 'DocumentDeliveryFailed', data: { documentId: 'd-1', receiverParticipantId: null, reason: { code: 'PEPPOL.REJECTED_BY_RECEIVER', message: 'no' }, mls: mls('RE').data.mls, failedAt: 'x' } })
      .when(mls('AP'))
      .then([]);
    given({ type: 'DocumentDelivered', data: { ...deliveredByMls, channel: 'local' } }).when(mls('RE')).then([]);
  });

  it('once sent, a failure without an MLS (a late dead letter) changes nothing; a failure without one may still be sent by a replay', () => {
    const deadLettered = { documentId: 'd-1', receiverParticipantId: null, reason: { code: 'PEPPOL.ENGINE_UNAVAILABLE', message: 'down' }, attempts: 5, failedAt: 'x' };
    given({ type: 'DocumentSent', data: sent }).when({ type: 'RecordDeliveryFailure', data: deadLettered }).then([]);
    given({ type: 'DocumentDeliveryFailed', data: deadLettered }).when({ type: 'RecordTransmission', data: sent }).then([{ type: 'DocumentSent', data: sent }]);
  });

  it('given a received document, an MLS for it is DOCUMENT.NOT_OUTGOING', () => {
    liveSpec.given([{ type: 'DocumentReceived', data: received }]).when(mls('AP')).thenThrows('DOCUMENT.NOT_OUTGOING');
  });
});


import { specification } from '../test/given-when-then';
import { type PeppolTransmissionCommand, peppolTransmissionDecider } from './decide';
import type { PeppolTransmissionEvent, PeppolTransmissionRequestedData } from './events';

const requested: PeppolTransmissionRequestedData = {
  transmissionId: 't-1',
  purpose: 'mls',
  messageId: 'm-1@gw',
  instanceIdentifier: 't-1',
  senderParticipantId: 'iso6523-actorid-upis::0242:000111',
  receiverParticipantId: 'iso6523-actorid-upis::0242:000222',
  documentTypeId: 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2::ApplicationResponse##urn:peppol:edec:mls:1.0::2.1',
  processId: 'cenbii-procid-ubl::urn:peppol:edec:mls',
  countryC1: 'BE',
  payload: '<ApplicationResponse/>',
  inReplyTo: 'received-1@their-ap',
  requestedAt: '2026-03-15T10:00:00.000Z',
};
const sent = { transmissionId: 't-1', messageId: 'm-1@gw', receipt: { refToMessageId: 'm-1@gw', timestamp: '2026-03-15T10:00:01.000Z' }, sentAt: '2026-03-15T10:00:01.000Z' };
const failed = { transmissionId: 't-1', reason: { code: 'PEPPOL.RECEIVER_NOT_FOUND', message: 'not in the SML' }, failedAt: '2026-03-15T10:00:01.000Z' };

const spec = specification<PeppolTransmissionCommand, PeppolTransmissionEvent, ReturnType<typeof peppolTransmissionDecider.evolve>>(peppolTransmissionDecider);

describe('#46 the access point\'s own Peppol messages (an MLS back): requested once, sent or failed once', () => {
  it('given nothing, when requested, then PeppolTransmissionRequested; requested again (the engine posted it twice), nothing new', () => {
    spec.given([]).when({ type: 'RequestPeppolTransmission', data: requested }).then([{ type: 'PeppolTransmissionRequested', data: requested }]);
    spec.given([{ type: 'PeppolTransmissionRequested', data: requested }]).when({ type: 'RequestPeppolTransmission', data: requested }).then([]);
  });

  it('given a requested one, its receipt is recorded once', () => {
    const history: PeppolTransmissionEvent[] = [{ type: 'PeppolTransmissionRequested', data: requested }];
    spec.given(history).when({ type: 'RecordPeppolTransmissionSent', data: sent }).then([{ type: 'PeppolTransmissionSent', data: sent }]);
    spec.given([...history, { type: 'PeppolTransmissionSent', data: sent }]).when({ type: 'RecordPeppolTransmissionSent', data: sent }).then([]);
  });

  it('a final refusal is recorded once, never after it was sent; a replay after a failure may still send it', () => {
    const history: PeppolTransmissionEvent[] = [{ type: 'PeppolTransmissionRequested', data: requested }];
    spec.given(history).when({ type: 'RecordPeppolTransmissionFailure', data: failed }).then([{ type: 'PeppolTransmissionFailed', data: failed }]);
    spec.given([...history, { type: 'PeppolTransmissionSent', data: sent }]).when({ type: 'RecordPeppolTransmissionFailure', data: failed }).then([]);
    spec.given([...history, { type: 'PeppolTransmissionFailed', data: failed }]).when({ type: 'RecordPeppolTransmissionSent', data: sent }).then([{ type: 'PeppolTransmissionSent', data: sent }]);
  });

  it('nothing is sent or failed that was never requested', () => {
    spec.given([]).when({ type: 'RecordPeppolTransmissionSent', data: sent }).then([]);
    spec.given([]).when({ type: 'RecordPeppolTransmissionFailure', data: failed }).then([]);
  });
});

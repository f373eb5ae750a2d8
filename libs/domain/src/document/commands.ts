import type { Command } from '../events';
import type { DocumentDeliveredData, DocumentDeliveryFailedData, DocumentReceivedData, DocumentSentData, DocumentSubmittedData, MessageLevelStatus } from './events';

export type SubmitDocument = Command<'SubmitDocument', DocumentSubmittedData>;
export type RecordDelivery = Command<'RecordDelivery', DocumentDeliveredData>;
export type ReceiveDocument = Command<'ReceiveDocument', DocumentReceivedData>;
export type RecordDeliveryFailure = Command<'RecordDeliveryFailure', DocumentDeliveryFailedData>;
/** The AS4 receipt of a live transmission (#46): the document is `Sent`, its MLS still to come. */
export type RecordTransmission = Command<'RecordTransmission', DocumentSentData>;
/**
 * The receiving access point's Message Level Status, come back as an inbound Peppol message (#46):
 * `Delivered` on AP/AB, `Failed` with its reason on RE. The receiver and the MessageId come from the
 * document itself (its stream), so whoever received the MLS needs nothing else of it.
 */
export type RecordMessageLevelStatus = Command<'RecordMessageLevelStatus', {
  readonly documentId: string;
  readonly mls: MessageLevelStatus;
  readonly recordedAt: string;
}>;

export type DocumentCommand = SubmitDocument | RecordDelivery | RecordDeliveryFailure | ReceiveDocument | RecordTransmission | RecordMessageLevelStatus;

import type { Command } from '../events';
import type { DocumentDeliveredData, DocumentDeliveryFailedData, DocumentReceivedData, DocumentSubmittedData } from './events';

export type SubmitDocument = Command<'SubmitDocument', DocumentSubmittedData>;
export type RecordDelivery = Command<'RecordDelivery', DocumentDeliveredData>;
export type ReceiveDocument = Command<'ReceiveDocument', DocumentReceivedData>;
export type RecordDeliveryFailure = Command<'RecordDeliveryFailure', DocumentDeliveryFailedData>;

export type DocumentCommand = SubmitDocument | RecordDelivery | RecordDeliveryFailure | ReceiveDocument;

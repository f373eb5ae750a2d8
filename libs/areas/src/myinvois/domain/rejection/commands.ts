import type { Command } from '@einvoice/domain';
import type { SubmissionError } from '../../reporting/report';
import type { MyInvoisBuyerRejectionRequestedData, RejectionRefusalKind } from './events';

/** The buyer asks to reject a document it received (`POST /api/einvoice/received/{uuid}/reject`). */
export type RequestBuyerRejection = Command<'RequestBuyerRejection', MyInvoisBuyerRejectionRequestedData>;

/** MyInvois's answer to Reject Document: done, or refused with its error. */
export type RecordBuyerRejectionAnswer = Command<
  'RecordBuyerRejectionAnswer',
  { readonly rejectionId: string; readonly refused?: { readonly kind: RejectionRefusalKind; readonly error: SubmissionError }; readonly at: string }
>;

export type MyInvoisRejectionCommand = RequestBuyerRejection | RecordBuyerRejectionAnswer;

import { EventMetadata, RecordedEvent, documentDecider, documentStreamId } from '@einvoice/domain';
import { MyInvoisDocumentValidatedData, MyInvoisDocumentsSubmittedData, PEPPOL_WITHHELD, myInvoisSubmissionDecider, myInvoisSubmissionStreamId, peppolDocumentOf } from '@einvoice/areas';
import { UnitOfWork, handleCommand } from '@einvoice/domain/infrastructure';

/**
 * `transport_mode: peppol`: the PINT MY copy of a MyInvois document leaves only once MyInvois says
 * Valid (a buyer must never hold a copy of a document that is not legally valid: there is no
 * recall). Runs in the poll's transaction, after RecordPoll, on the events it recorded: each
 * `MyInvoisDocumentValidated` with a copy appends that copy's `DocumentSubmitted`, which the
 * delivery worker delivers as any Peppol document. Exactly once: a redelivered poll event finds
 * the processed mark, RecordPoll validates a document once, and the copy's stream is appended at
 * expected version 0 (`DOCUMENT.ALREADY_EXISTS` otherwise, rolling the whole poll back).
 *
 * An ID this supplier already sent over Peppol (an earlier document with that ID, valid and since
 * cancelled) is withheld instead: Peppol document IDs are unique per supplier
 * (`documents_supplier_number_key`), and a violation here would roll back the validation itself.
 */
export async function releasePeppolCopies(
  uow: UnitOfWork,
  submitted: MyInvoisDocumentsSubmittedData,
  recorded: readonly RecordedEvent[],
  metadata: EventMetadata,
): Promise<void> {
  for (const event of recorded) {
    if (event.type !== 'MyInvoisDocumentValidated') continue;
    const validated = event.data as MyInvoisDocumentValidatedData;
    const copy = peppolDocumentOf(submitted, validated);
    if (!copy) continue;
    const sentBefore = await uow.query<{ id: string }>(
      `SELECT id FROM documents WHERE supplier_id = $1 AND document_number = $2 AND direction = 'outgoing' LIMIT 1`,
      [copy.supplierId, copy.documentNumber],
    );
    if (sentBefore.length > 0) {
      await handleCommand(uow, myInvoisSubmissionDecider, myInvoisSubmissionStreamId(submitted.submissionId), {
        type: 'WithholdPeppolCopy',
        data: { submissionId: submitted.submissionId, documentId: validated.documentId, reason: PEPPOL_WITHHELD.idAlreadySent(copy.documentNumber), withheldAt: validated.validatedAt },
      }, metadata);
      continue;
    }
    await handleCommand(uow, documentDecider, documentStreamId(copy.documentId), { type: 'SubmitDocument', data: copy }, metadata);
  }
}

import { specification } from '@einvoice/domain';
import { myInvoisSubmissionDecider } from './decide';
import type { MyInvoisDocumentValidatedData, MyInvoisDocumentsSubmittedData, MyInvoisPeppolCopyWithheldData, MyInvoisSubmissionEvent } from './events';
import { PEPPOL_WITHHELD, peppolDocumentOf } from './peppol-copy';

const copy = {
  documentId: 'p-1',
  documentType: '380',
  senderParticipantId: 'iso6523-actorid-upis::0230:c1234567890',
  receiverParticipantId: 'iso6523-actorid-upis::0230:c20880050010',
  xml: '<Invoice/>',
  fields: { ID: 'INV-1' },
};
const submitted: MyInvoisDocumentsSubmittedData = {
  submissionId: 's-1',
  tenantId: 't-1',
  supplierId: 'sup-1',
  kind: 'invoice',
  documents: [
    { documentId: 'd-1', invoiceCodeNumber: 'INV-1', format: 'JSON', document: '{}', documentHash: 'h1', peppol: copy },
    { documentId: 'd-2', invoiceCodeNumber: 'INV-2', format: 'JSON', document: '{}', documentHash: 'h2' },
    // Schema 1 (upcast): the copy left at submission, nothing is due at validation.
    { documentId: 'd-3', invoiceCodeNumber: 'INV-3', format: 'JSON', document: '{}', documentHash: 'h3', peppol: { documentId: 'p-3', sentAtSubmission: true } },
  ],
  submittedAt: '2026-03-15T10:00:00.000Z',
};
const validatedAt = '2026-03-15T10:00:05.000Z';
const validated = (documentId: string, uuid: string): MyInvoisDocumentValidatedData => ({ submissionId: 's-1', documentId, uuid, longId: `L-${uuid}`, validatedAt });

describe('transport_mode: peppol: the Peppol copy leaves only once MyInvois says Valid', () => {
  it('a validated document with a copy gives its DocumentSubmitted (area my, PINT MY XML, sent at validation time)', () => {
    expect(peppolDocumentOf(submitted, validated('d-1', 'U1'))).toEqual({
      documentId: 'p-1',
      tenantId: 't-1',
      supplierId: 'sup-1',
      area: 'my',
      documentNumber: 'INV-1',
      documentType: '380',
      transportMode: 'peppol',
      senderParticipantId: copy.senderParticipantId,
      receiverParticipantId: copy.receiverParticipantId,
      fields: { ID: 'INV-1', kind: 'invoice', myinvoisDocumentId: 'd-1' },
      xml: '<Invoice/>',
      submittedAt: validatedAt,
    });
  });

  it('a document without a copy (no header, consolidated, generic TIN), a schema-1 one, or an unknown one gives none', () => {
    expect(peppolDocumentOf(submitted, validated('d-2', 'U2'))).toBeUndefined();
    expect(peppolDocumentOf(submitted, validated('d-3', 'U3'))).toBeUndefined();
    expect(peppolDocumentOf(submitted, validated('d-9', 'U9'))).toBeUndefined();
  });

  describe('WithholdPeppolCopy (the ID already went over Peppol)', () => {
    const spec = specification(myInvoisSubmissionDecider);
    const history: MyInvoisSubmissionEvent[] = [
      { type: 'MyInvoisDocumentsSubmitted', data: submitted },
      {
        type: 'MyInvoisSubmissionAccepted',
        data: { submissionId: 's-1', submissionUid: 'UID', acceptedDocuments: [{ documentId: 'd-1', uuid: 'U1', invoiceCodeNumber: 'INV-1' }], rejectedDocuments: [], acceptedAt: validatedAt },
      },
    ];
    const valid: MyInvoisSubmissionEvent = { type: 'MyInvoisDocumentValidated', data: validated('d-1', 'U1') };
    const withhold: MyInvoisPeppolCopyWithheldData = { submissionId: 's-1', documentId: 'd-1', reason: PEPPOL_WITHHELD.idAlreadySent('INV-1'), withheldAt: validatedAt };

    it('given a valid document, then MyInvoisPeppolCopyWithheld with the reason; again: nothing new', () => {
      spec.given([...history, valid]).when({ type: 'WithholdPeppolCopy', data: withhold }).then([{ type: 'MyInvoisPeppolCopyWithheld', data: withhold }]);
      spec.given([...history, valid, { type: 'MyInvoisPeppolCopyWithheld', data: withhold }]).when({ type: 'WithholdPeppolCopy', data: withhold }).then([]);
      expect(withhold.reason.code).toBe('PEPPOL.WITHHELD_ID_ALREADY_SENT');
    });

    it('given a document not (yet) valid, then nothing: only a validated copy is ever due', () => {
      spec.given(history).when({ type: 'WithholdPeppolCopy', data: withhold }).then([]);
    });
  });
});

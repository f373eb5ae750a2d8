import { invoiceBody, line, sst, supplier } from './fixtures/bodies';
import { checkBulkCount, prepareSubmission } from './submission';

const many = (n: number) => Array.from({ length: n }, (_, i) => invoiceBody({ ID: `INV-${i}` }));
const myinvoisOnly = { submissionId: 'S-1', transportMode: 'myinvois' } as const;

describe('#4 MyInvois submission limits and per-document outcome', () => {
  it('a bulk of more than 100 documents is a 400 MYINVOIS.TOO_MANY_DOCUMENTS; 100 pass', () => {
    expect(() => checkBulkCount(many(101))).toThrow(expect.objectContaining({ kind: 'validation', code: 'MYINVOIS.TOO_MANY_DOCUMENTS' }));
    expect(checkBulkCount(many(100))).toHaveLength(100);
  });

  it('a bulk body that is not a non-empty array is a 400', () => {
    expect(() => checkBulkCount({ ID: 'x' })).toThrow(expect.objectContaining({ kind: 'validation', code: 'REQUEST.INVALID' }));
    expect(() => checkBulkCount([])).toThrow(expect.objectContaining({ kind: 'validation' }));
  });

  it('invalid, repeated and already-submitted IDs are rejected per document in the authority shape; the rest are prepared', () => {
    const bodies = [invoiceBody({ ID: 'A-1' }), invoiceBody({ ID: 'A-2', IssueDate: 'yesterday' }), invoiceBody({ ID: 'A-1' }), invoiceBody({ ID: 'OLD-1' }), invoiceBody({ ID: 'A-3' })];
    const prepared = prepareSubmission('invoice', bodies, supplier, new Set(['OLD-1']), myinvoisOnly);
    expect(prepared.documents.map((d) => d.parsed.number)).toEqual(['A-1', 'A-3']);
    expect(prepared.documents[0].rendered).toMatchObject({ mediaType: 'application/json', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // What the reporting worker's Submit Documents call needs; without a Peppol copy, of the fields only what
    // the account-wide list shows (issue 11, #47): its buyer's name and TIN among them (#50 `counterparty`).
    expect(prepared.documents[0].parsed.fields).toEqual({ IssueDate: '2026-03-15', DocumentCurrencyCode: 'MYR', CustomerParty: { LegalName: 'Syarikat Pembeli Bhd', CustomerTIN: 'C20880050010' } });
    expect(prepared.documents[0].parsed).toMatchObject({ type: 'invoice', payload: { submissionId: 'S-1', kind: 'invoice', format: 'JSON', invoiceCodeNumber: 'A-1' } });
    expect(prepared.rejected).toEqual([
      {
        invoiceCodeNumber: 'A-2',
        error: { code: 'REQUEST.INVALID', message: expect.any(String), target: 'A-2', propertyPath: null, details: [expect.objectContaining({ propertyPath: 'IssueDate', target: 'IssueDate' })] },
      },
      { invoiceCodeNumber: 'A-1', error: expect.objectContaining({ code: 'DOCUMENT.DUPLICATE_ID', details: [expect.objectContaining({ propertyPath: 'ID' })] }) },
      { invoiceCodeNumber: 'OLD-1', error: expect.objectContaining({ code: 'DOCUMENT.DUPLICATE_ID' }) },
    ]);
  });

  it('#47 each prepared document carries the amount payable its renderings state, InvoiceTotal given or not (the list\'s total)', () => {
    const bodies = [invoiceBody({ ID: 'T-1' }), invoiceBody({ ID: 'T-2', InvoiceTotal: 106.01 }), invoiceBody({ ID: 'T-3', Prepayments: [{ PaymentID: 'PP-1', Amount: 6, Date: '2026-03-01', Time: '09:00:00Z' }] })];
    const prepared = prepareSubmission('invoice', bodies, supplier, new Set(), myinvoisOnly);
    expect(prepared.rejected).toEqual([]);
    expect(prepared.documents.map((d) => [d.parsed.number, d.parsed.total])).toEqual([['T-1', '106.00'], ['T-2', '106.01'], ['T-3', '100.00']]);
    for (const { parsed, rendered } of prepared.documents) expect(rendered.bytes).toContain(`"PayableAmount":[{"_":${Number(parsed.total)},`);
  });

  it('a rendered document over 300 KB makes the request a 413 MYINVOIS.MAXIMUM_SIZE_EXCEEDED', () => {
    const lines = Array.from({ length: 400 }, (_, i) => line(`Item ${i} ${'x'.repeat(200)}`, 1, 10, [sst()]));
    expect(() => prepareSubmission('invoice', [invoiceBody({ InvoiceLines: lines })], supplier, new Set(), myinvoisOnly)).toThrow(
      expect.objectContaining({ kind: 'too_large', code: 'MYINVOIS.MAXIMUM_SIZE_EXCEEDED' }),
    );
  });
});

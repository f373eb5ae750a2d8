import { adjusted, foreignCustomer, generalPublic, invoiceBody, line, seller, sst, supplier } from './fixtures/bodies';
import { genericTins, pintMyParticipantId, pintMyRoute, supplierParticipantId } from './peppol';
import { prepareSubmission } from './submission';
import { myInvoisArea } from './area';

const parse = (kind: 'invoice' | 'consolidated' | 'self-billed', body: unknown) => myInvoisArea.parseDocument(kind, body, supplier);
const { CustomerParty: _buyer, ...withoutBuyer } = invoiceBody({ ID: 'SB-1' });
const selfBilled = { ...withoutBuyer, SupplierParty: seller, InvoiceLines: [line('Oil palm fruit', 1000, 0.8, [{ TaxType: '06' }])] };

describe('PINT MY participants (scheme 0230 + TIN)', () => {
  it('derives iso6523-actorid-upis::0230:<tin>, lower case', () => {
    expect(pintMyParticipantId('C20880050010')).toBe('iso6523-actorid-upis::0230:c20880050010');
  });

  it('an onboarded supplier is the participant of its TIN; a generic TIN names no one, so no participant', () => {
    expect(supplierParticipantId('C25845632020')).toBe('iso6523-actorid-upis::0230:c25845632020');
    expect(supplierParticipantId('IG21136626090')).toBe('iso6523-actorid-upis::0230:ig21136626090');
    for (const tin of genericTins) expect(supplierParticipantId(tin)).toBeUndefined();
  });

  it('an invoice goes from the supplier to the buyer (CustomerTIN)', () => {
    expect(pintMyRoute(parse('invoice', invoiceBody()), supplier)).toEqual({
      sender: 'iso6523-actorid-upis::0230:c25845632020',
      receiver: 'iso6523-actorid-upis::0230:c20880050010',
    });
  });

  it('a self-billed document goes from the onboarded supplier (the buyer, issuer) to the seller (SupplierTIN)', () => {
    expect(pintMyRoute(parse('self-billed', selfBilled), supplier)).toEqual({
      sender: 'iso6523-actorid-upis::0230:c25845632020',
      receiver: 'iso6523-actorid-upis::0230:ig21136626090',
    });
  });

  it('skips consolidated documents and generic TINs (no Peppol address)', () => {
    expect(pintMyRoute(parse('consolidated', invoiceBody({ CustomerParty: generalPublic })), supplier)).toEqual({ skipped: 'CONSOLIDATED' });
    expect(pintMyRoute(parse('invoice', invoiceBody({ CustomerParty: foreignCustomer })), supplier)).toEqual({ skipped: 'NO_PEPPOL_ADDRESS' });
    expect(pintMyRoute(parse('self-billed', { ...selfBilled, SupplierParty: { ...seller, SupplierTIN: 'EI00000000030' } }), supplier)).toEqual({ skipped: 'NO_PEPPOL_ADDRESS' });
    expect(genericTins.has('EI00000000010')).toBe(true);
  });
});

describe('the Peppol leg of a submission (transport_mode: peppol)', () => {
  const peppol = { submissionId: 'S-1', transportMode: 'peppol' } as const;

  it('renders PINT MY for each routed document, a line with two taxes included, and rejects, alone, one PINT MY cannot carry', () => {
    const twoTaxes = invoiceBody({ ID: 'MULTI', InvoiceLines: [line('Widget', 1, 100, [sst(), { TaxType: '06' }])] });
    const exemptAtSixPercent = invoiceBody({ ID: 'EXEMPT-RATE', InvoiceLines: [line('Widget', 1, 100, [{ TaxType: 'E', TaxExemptionReason: 'Order 2018', TaxRate: 0.06 }])] });
    const bodies = [invoiceBody({ ID: 'OK' }), twoTaxes, exemptAtSixPercent, invoiceBody({ ID: 'FOREIGN', CustomerParty: foreignCustomer })];
    expect(prepareSubmission('invoice', bodies, supplier, new Set(), { ...peppol, transportMode: 'myinvois' }).rejected).toEqual([]);
    const leg = prepareSubmission('invoice', bodies, supplier, new Set(), peppol);
    expect(leg.documents.map((d) => d.parsed.number)).toEqual(['OK', 'MULTI', 'FOREIGN']);
    expect(leg.documents[0].peppolCopy).toMatchObject({ receiverParticipantId: 'iso6523-actorid-upis::0230:c20880050010', documentType: '380' });
    expect(leg.documents[0].peppolCopy?.xml).toContain('<cbc:CustomizationID>urn:peppol:pint:billing-1@my-1</cbc:CustomizationID>');
    // The copy's DocumentSubmitted carries the caller's fields.
    expect(leg.documents[0].parsed.fields).toMatchObject({ ID: 'OK' });
    expect(leg.documents[1].peppolCopy?.xml.match(/<cac:ClassifiedTaxCategory>/g)).toHaveLength(2);
    // No Peppol address: no copy, and of the fields only those the account-wide list shows (submission.ts LISTED_FIELDS), its buyer's name and TIN too (#50).
    expect(leg.documents[2].peppolCopy).toBeUndefined();
    expect(leg.documents[2].parsed.fields).toEqual({ IssueDate: '2026-03-15', DocumentCurrencyCode: 'MYR', CustomerParty: { LegalName: 'Acme Inc', CustomerTIN: 'EI00000000020' } });
    expect(leg.rejected).toEqual([{
      invoiceCodeNumber: 'EXEMPT-RATE',
      error: expect.objectContaining({
        code: 'MYINVOIS.PINT_MY_UNSUPPORTED', target: 'EXEMPT-RATE', message: expect.stringContaining('aligned-ibrp-e-05'),
        details: [expect.objectContaining({ code: 'MYINVOIS.PINT_MY_UNSUPPORTED', target: 'InvoiceLines', propertyPath: 'InvoiceLines[0].LineTaxes[0].TaxRate' })],
      }),
    }]);
  });

  it('a self-billed debit note (13) travels as a self-billed invoice 389, the only self-billing invoice code of ibr-cl-01', () => {
    const prepared = prepareSubmission('self-billed', [{ ...selfBilled, InvoiceTypeCode: '03', ...adjusted }], supplier, new Set(), peppol);
    expect(prepared.documents[0].peppolCopy).toMatchObject({ documentType: '389' });
  });
});

import { AppError } from '@einvoice/domain';
import type { StoredDocument } from '../registry/printable';
import { renderHtml } from '../printable/html';
import { renderPdf } from '../printable/pdf';
import { PdfTools } from '../printable/testing/pdf-tools';
import { hostileVariants } from '../../../../test/support/fuzz/mutations';
import { adjusted, exempt, generalPublic, invoiceBody, line, selfBilledBody, sst, supplier } from './fixtures/bodies';
import { parseMyInvois, pintMyCopy, renderMyInvois } from './codec';
import { myInvoisExamples } from './examples';
import { myInvoisMark, myInvoisPrintable } from './printable';
import { renderMyInvoisXml } from './render-xml';
import type { DocumentKind, MyInvoisDocument } from './schema-document';
import { supplierProfileOf } from './supplier-profile';
import { myInvoisPortalUrl, myInvoisValidationLink } from './webhooks';

const valid = { uuid: 'F9D425P6DS7D8IU4A8R5EY2K10', submissionUid: 'HJSD135P2S7D8IU4A8R5EY2K10', status: 'Valid', longId: 'LIJAF97HJJKH8298KHADH09908570FDKK9S2LSIUHF871225' };
const link = myInvoisValidationLink(myInvoisPortalUrl(), valid.uuid, valid.longId)!;
const createdAt = new Date('2026-03-15T10:30:00Z');
const tools = new PdfTools();
afterAll(() => tools.remove());

/** A self-billed document the rules take: produce of a seller not registered for SST (no tax). */
const selfBilledDocument = () => selfBilledBody({ InvoiceLines: [line('Fresh kangkung', 40, 3.5, [{ TaxType: '06' }], { UOM: 'KGM' })] });

/** What the gateway stores of a document submitted with this body (its report's request: the JSON submitted, the PINT MY copy). */
function stored(body: unknown, over: Partial<StoredDocument> = {}, kind: DocumentKind = 'invoice'): StoredDocument {
  const parsed = parseMyInvois(kind, body, supplier);
  const rendered = renderMyInvois(parsed, supplier);
  return {
    id: '0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a', number: parsed.number, type: parsed.type, direction: 'outgoing',
    // The row keeps only the listed fields (submission.ts): the view must not need more.
    fields: { IssueDate: parsed.fields.IssueDate },
    receipt: valid, reportState: 'reported', renderedSha256: rendered.sha256, xml: null, createdAt: createdAt.toISOString(),
    supplier: supplierProfileOf(supplier),
    reported: { bytes: rendered.bytes, mediaType: rendered.mediaType },
    ...over,
    peppolCopyXml: 'peppolCopyXml' in over ? over.peppolCopyXml : (pintMyCopy(parsed, supplier)?.xml ?? null),
  };
}

describe('#49 Malaysia\'s printed view', () => {
  it('reads the submitted JSON: parties by TIN, BRN, SST and MSIC with their state, lines, the breakdown, the totals', () => {
    const view = myInvoisPrintable.build(stored(invoiceBody()));
    expect(view).toMatchObject({ title: 'Invoice', number: 'INV-2026-0001', typeCode: '01', issueDate: '2026-03-15', languages: ['en'] });
    expect(view.dates).toEqual([{ label: 'Issue time', value: '10:30:00Z' }]);
    expect(view.issuer).toEqual({
      name: 'Kedai Runcit Maju Sdn Bhd',
      identifiers: [
        { label: 'TIN', value: 'C25845632020' }, { label: 'BRN', value: '202001234567' }, { label: 'SST', value: 'W10-1808-32000001' },
        { label: 'Tourism tax', value: 'TTX-123' }, { label: 'MSIC', value: '47111 Retail sale in non-specialized stores' }, { label: 'Tel.', value: '+60123456789' },
      ],
      address: ['Lot 66, Bangunan Merdeka', 'Kuala Lumpur', 'Wilayah Persekutuan Kuala Lumpur', 'MYS'],
    });
    // The buyer's SST `NA` (not registered) is not printed.
    expect(view.buyer).toEqual({
      name: 'Syarikat Pembeli Bhd',
      identifiers: [{ label: 'TIN', value: 'C20880050010' }, { label: 'BRN', value: '199901012345' }, { label: 'Tel.', value: '+60312345678' }, { label: 'Email', value: 'ap@pembeli.my' }],
      address: ['Menara Amazing', 'Jalan Jalan 20', '47500 Petaling Jaya', 'Selangor', 'MYS'],
    });
    expect(view.lines).toEqual([
      { description: 'Widget (classification 022)', quantity: '2', unit: 'C62', unitPrice: '50.00', discounts: [], taxCategory: '02', taxRate: '6', amount: '100.00' },
    ]);
    // MyInvois's breakdown is per tax type, without a rate (the lines state theirs).
    expect(view.taxes).toEqual([{ category: '02 Service Tax', rate: undefined, taxable: '100.00', tax: '6.00' }]);
    expect(view.totals).toEqual({
      currency: 'MYR', net: '100.00', allowances: '0.00', charges: '0.00', taxExclusive: '100.00', tax: '6.00', taxInclusive: '106.00', prepaid: '0.00', rounding: undefined, payable: '106.00',
    });
    expect(view.otherTotals).toBeUndefined();
  });

  it('once Valid: the validation link as the QR and under References; the PINT MY copy attached as it is', () => {
    const document = stored(invoiceBody());
    const view = myInvoisPrintable.build(document);
    expect(link).toBe(`https://preprod.myinvois.hasil.gov.my/${valid.uuid}/share/${valid.longId}`);
    expect(view.mark).toEqual({ kind: 'qr', payload: link, caption: ['Validated by LHDN MyInvois'], legend: [`UUID ${valid.uuid}`], sizeMm: 30 });
    expect(view.references).toContainEqual({ label: 'MyInvois validation link', value: link });
    expect(view.attachment).toEqual({ filename: 'INV-2026-0001.xml', xml: document.peppolCopyXml });
    // A cancellation asked, not answered yet: still Valid at MyInvois.
    expect(myInvoisMark({ ...document, reportState: 'cancelling' })).toMatchObject({ kind: 'qr', payload: link });
  });

  it('before Valid: "not yet authorised" with where it stands, no link; cancelled: said so; never a QR', () => {
    for (const [reportState, words] of [['pending', 'not yet submitted'], ['processing', 'not validated it yet'], ['invalid', 'invalid at MyInvois'], ['rejected', 'rejected by MyInvois']]) {
      const view = myInvoisPrintable.build(stored(invoiceBody(), { reportState, receipt: reportState === 'processing' ? { uuid: valid.uuid, submissionUid: valid.submissionUid } : null }));
      expect(view.mark).toEqual({ kind: 'pending', text: ['Not yet authorised by the tax authority', expect.stringContaining(words)] });
      expect(view.references.map((r) => r.label)).not.toContain('MyInvois validation link');
    }
    // Valid but its longId not recorded (never so): no link to make, so no QR.
    expect(myInvoisMark(stored(invoiceBody(), { receipt: { uuid: valid.uuid } })).kind).toBe('pending');
    expect(myInvoisMark(stored(invoiceBody(), { reportState: 'cancelled' }))).toEqual({ kind: 'text', text: ['Cancelled at MyInvois: no longer a valid e-Invoice', `UUID ${valid.uuid}`] });
  });

  it('reads a document submitted as XML as the same document', () => {
    const parsed = parseMyInvois('invoice', invoiceBody(), supplier);
    const xml = renderMyInvoisXml({ kind: 'invoice', body: parsed.fields } as unknown as MyInvoisDocument, supplier);
    const fromXml = myInvoisPrintable.build(stored(invoiceBody(), { reported: { bytes: xml, mediaType: 'application/xml' } }));
    const fromJson = myInvoisPrintable.build(stored(invoiceBody()));
    // The XML writes a price as given (`50`); the JSON form's numbers are printed with two decimals.
    expect({ ...fromXml, lines: [] }).toEqual({ ...fromJson, lines: [] });
    expect(fromXml.lines[0]).toEqual({ ...fromJson.lines[0], unitPrice: '50' });
  });

  it('a foreign-currency export: totals in USD, the rate to MYR (MyInvois asks no totals in MYR), Incoterms', () => {
    const view = myInvoisPrintable.build(stored(myInvoisExamples.invoice.foreignCurrency.value));
    expect(view.totals).toMatchObject({ currency: 'USD', payable: '600.00' });
    expect(view.references).toEqual(expect.arrayContaining([{ label: 'Exchange rate', value: '1 USD = 4.472 MYR' }, { label: 'Incoterms', value: 'FOB' }]));
    expect(view.buyer).toMatchObject({ name: 'Acme Inc', identifiers: expect.arrayContaining([{ label: 'TIN', value: 'EI00000000020' }, { label: 'Passport', value: 'A1234567' }]), address: ['900 Winslow Way E', '98110 Seattle', 'USA'] });
    expect(view.taxes).toEqual([{ category: '06 Not Applicable', rate: undefined, taxable: '600.00', tax: '0.00' }]);
  });

  it('a credit note names the invoice it adjusts; a self-billed invoice is issued by its seller to the supplier; the general public has no NA printed', () => {
    const credit = myInvoisPrintable.build(stored(invoiceBody({ ID: 'CN-1', InvoiceTypeCode: '02', ...adjusted })));
    expect(credit).toMatchObject({ title: 'Credit note', typeCode: '02' });
    expect(credit.references).toContainEqual({ label: 'Original e-Invoice', value: 'INV-2026-0001 (MyInvois UUID F9D425P6DS7D8IU4A8R5EY2K10)' });

    const selfBilled = myInvoisPrintable.build(stored(selfBilledDocument(), {}, 'self-billed'));
    expect(selfBilled).toMatchObject({ title: 'Self-billed invoice', typeCode: '11' });
    expect(selfBilled.issuer).toMatchObject({ name: 'Pekebun Kecil Ahmad', identifiers: expect.arrayContaining([{ label: 'NRIC', value: '770625015324' }]) });
    expect(selfBilled.buyer?.name).toBe('Kedai Runcit Maju Sdn Bhd');

    const consolidated = myInvoisPrintable.build(stored(invoiceBody({ CustomerParty: generalPublic }), {}, 'consolidated'));
    expect(consolidated.buyer).toEqual({ name: 'General Public', identifiers: [{ label: 'TIN', value: 'EI00000000010' }], address: ['MYS'] });
    expect(consolidated.attachment).toBeUndefined();
  });

  it('several taxes on a line, per-unit tax, exemption, discounts and charges, prepayment, delivery: each printed', () => {
    const body = invoiceBody({
      InvoiceLines: [
        line('Room night', 2, 300, [{ TaxType: '01', TaxRate: 0.1 }, { TaxType: '03', TaxBaseUnit: 2, TaxPerUnit: 10 }], { Discounts: [{ Amount: 20, Reason: 'Member rate' }], Charges: [{ Amount: 5, Reason: 'Late check-out' }] }),
        line('Medicine', 1, 40, [{ ...exempt }]),
      ],
      Discounts: [{ Amount: 10, Reason: 'Voucher' }],
      Prepayments: [{ Amount: 100, Date: '2026-03-01', Time: '09:00:00Z', PaymentID: 'PP-7' }],
      DeliveryDetails: { RecipientName: 'Gudang', RecipientTIN: 'C20880050010', RecipientBRN: '199901012345', CityName: 'Klang', AddressLines: ['Jalan 88'], CountrySubentityCode: '10', CountryCode: 'MYS', ShipmentID: 'SHP-1' },
    });
    const view = myInvoisPrintable.build(stored(body, { peppolCopyXml: null }));
    expect(view.lines[0]).toMatchObject({ discounts: ['-20.00 Member rate', '+5.00 Late check-out'], taxCategory: '01 10 %\n03 10.00 × 2 C62', taxRate: undefined, amount: '585.00' });
    expect(view.lines[1]).toMatchObject({ taxCategory: 'E', taxRate: '0' });
    expect(view.taxes.map((t) => [t.category, t.tax])).toEqual([['01 Sales Tax', '58.50'], ['03 Tourism Tax', '20.00'], [expect.stringMatching(/^E Tax exemption: Exempt under Sales Tax/), '0.00']]);
    expect(view.payment).toEqual(['Prepaid 100.00 MYR on 2026-03-01 09:00:00Z, reference PP-7', 'Allowance -10.00 Voucher']);
    expect(view.references).toEqual(expect.arrayContaining([
      { label: 'Delivered to', value: 'Gudang, TIN C20880050010, BRN 199901012345, Jalan 88, Klang, Selangor, MYS' },
      { label: 'Shipment', value: 'SHP-1' },
    ]));
    expect(view.totals.prepaid).toBe('100.00');
  });

  it('a PINT MY document received over Peppol is printed from its UBL, attached, with no mark (no longId to link)', () => {
    const copy = stored(invoiceBody()).peppolCopyXml!;
    const view = myInvoisPrintable.build(stored(invoiceBody(), { direction: 'incoming', xml: copy, receipt: null, reportState: null, reported: null, peppolCopyXml: null }));
    expect(view).toMatchObject({ title: 'Invoice', number: 'INV-2026-0001', totals: { currency: 'MYR', payable: '106.00' }, attachment: { filename: 'INV-2026-0001.xml', xml: copy } });
    expect(view.issuer.name).toBe('Kedai Runcit Maju Sdn Bhd');
    expect(view.mark).toBeUndefined();
  });

  it('a buyer\'s rejection request (an incoming row with no document) has no view: 404; a report without its document is a 500 (a bug)', () => {
    const call = (over: Partial<StoredDocument>) => () => myInvoisPrintable.build(stored(invoiceBody(), over));
    expect(call({ direction: 'incoming', xml: null })).toThrow(expect.objectContaining({ kind: 'not_found', code: 'DOCUMENT.NO_VIEW' }));
    expect(call({ reported: null })).toThrow(AppError);
  });

  it('prints it: pdftotext reads the number, the amount due and the link; the QR decodes to exactly the link; the HTML too', async () => {
    const view = myInvoisPrintable.build(stored(invoiceBody()));
    const pdf = await renderPdf(view, { createdAt });
    const text = tools.text(pdf);
    expect(text).toContain('INV-2026-0001');
    expect(text).toMatch(/Amount due\s+106\.00 MYR/);
    expect(text.replace(/\s+/g, '')).toContain(`MyInvoisvalidationlink:${link}`);
    expect(tools.qrCodes(pdf)).toEqual([link]);
    const html = renderHtml(view);
    expect(html).toContain(`aria-label="${link}"`);
    expect(html).toContain('106.00');
  });

  it('renders every document MyInvois\'s codec accepts among the fuzz suite\'s hostile variants (a 500 would be a bug)', async () => {
    const bodies: Array<[DocumentKind, Record<string, unknown>]> = [
      ['invoice', invoiceBody({ InvoiceLines: [line('Widget', 2, 50, [sst()], { Discounts: [{ Amount: 1, Reason: 'x' }] })], Prepayments: [{ Amount: 1, PaymentID: 'P' }] })],
      ['consolidated', invoiceBody({ CustomerParty: generalPublic })],
      ['self-billed', selfBilledDocument()],
    ];
    let accepted = 0;
    for (const [kind, body] of bodies) {
      for (const variant of hostileVariants(body)) {
        let document: StoredDocument;
        try {
          // transport_mode myinvois, as the fuzz suite submits them: no PINT MY copy.
          document = stored(JSON.parse(variant.raw), { peppolCopyXml: null }, kind);
        } catch {
          continue; // refused before it is stored (the gateway's body checks and the codec's: a 400); rendering is what is tested here
        }
        accepted += 1;
        const view = myInvoisPrintable.build(document);
        expect(renderHtml(view)).toContain('</html>');
        await expect(renderPdf(view, { createdAt })).resolves.toBeInstanceOf(Buffer);
      }
    }
    expect(accepted).toBeGreaterThan(0);
  });
});

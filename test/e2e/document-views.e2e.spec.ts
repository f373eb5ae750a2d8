import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { beVat, deVat, sgUen } from '../support/identifiers';
import { freshCuit } from '../../libs/areas/src/afip/testing/cuits';
import { PdfTools } from '../../libs/areas/src/printable/testing/pdf-tools';
import { invoiceBody } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { myInvoisDocuments, onboardMyInvoisSupplier } from '../support/myinvois';
import { AppProcess, eventually, startApp, startGateway, testEnv } from '../support/stack';
import {
  aeInvoice, aeParticipant, aeTin, type AreasStack, arVoucher, id, joInvoice, run, joSupplier, ngInvoice, ngTaxpayer, sgInvoice, sgSupplier, startAreasStack,
} from '../support/area-documents';

const beSeller = () => ({ registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], street: 'Rue de la Loi 16', city: 'Brussels', country: 'BE' });
const deSupplier = (vat: string) => ({
  registered_name: 'Berliner Teile GmbH', identifiers: [{ scheme: 'DE:VAT', id: vat }], street: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE',
  contact_number: '+49301234567', contact_name: 'Erika Muster', contact_email: 'billing@teile.example',
});
/** Intra-community, 0 %, to a buyer hosted here (the German supplier receives it): 80.00 EUR. */
const beInvoice = (ID: string, vat: string) => ({
  ID, DocumentType: '380', IssueDate: '2026-04-01',
  CustomerParty: { RegisteredName: 'Berliner Teile GmbH', address: { Street: 'Unter den Linden 1', ZipCode: '10117', City: 'Berlin', Country: 'DE' }, Identifiers: [{ Scheme: 'DE:VAT', ID: vat }] },
  InvoiceLines: [{ Description: 'Widgets, größe M', PriceAmount: 40, InvoicedQuantity: 2, TaxType: { TaxRate: 0, TaxType: 'intra_community', TaxCountry: 'BE' } }],
  TotalIncludingVat: 80,
});

/** The AEAT's test taxpayer (a NIF per run would need a real control letter): runs differ by number. */
const esIssuer = { nif: '89890001K', name: 'Empresa de Pruebas SL' };
const esInvoice = (document_identifier: string) => ({
  document_identifier, issue_date: '2026-11-20', invoice_type: 'F1', description: 'Consultoría, noviembre', recipient: { nif: 'B00000000', name: 'Cliente SA' },
  taxlines: [{ tax_base: 100, tax_rate: 21, repercutida_quota: '21.00' }], total_amount: '121.00',
});

const plSupplier = { registered_name: 'Sprzedawca Źdźbło Sp. z o.o.', identifiers: [{ scheme: 'PL:NIP', id: '5260250274' }], street: 'ul. Prosta 1', city: 'Warszawa', postal_code: '00-001', country: 'PL' };
const plInvoice = (ID: string) => ({
  ID, DocumentType: 'Invoice', IssueDate: '2026-11-25',
  CustomerParty: { RegisteredName: 'Nabywca Łódź S.A.', address: { Street: 'ul. Krzywa 2', ZipCode: '30-001', City: 'Kraków', Country: 'PL' }, Identifiers: [{ Scheme: 'PL:NIP', ID: '1234563218' }] },
  InvoiceLines: [{ Description: 'Usługa doradcza', PriceAmount: 100, InvoicedQuantity: 2, TaxType: { TaxRate: 23, TaxType: 'standard', TaxCountry: 'PL' } }],
  TotalIncludingVat: 246,
});

/**
 * #49 Documents people can read: GET /v1/documents/{id}/pdf and /html for the Peppol areas (Belgium, Germany
 * receiving, Singapore), the UAE, Spain, Argentina, Poland, Jordan and Nigeria, each submitted through its area's
 * own route. Each regime's QR, found in the page image, decodes to exactly the payload its area's answer gave
 * (ValidarQR link, AFIP's QrLink, KSeF's KOD I link, JoFotara's and FIRS's QR text), with its legend. The PDF read with a
 * person's tools: its text holds the number and the amount due; it is PDF/A-3 with the UBL attached, byte for
 * byte what the area's XML route serves. The HTML: one page, no script. Another tenant's: 404.
 */
describe('#49 GET /v1/documents/{id}/pdf and /html', () => {
  let stack: AreasStack;
  let client: Client;
  let other: Client;
  const reader = new PdfTools({ dpi: 200 });
  /** The ValidarQR link Spain's answer gave. */
  let esQr: string;
  /** Argentina's answer: its QR link and CAE. */
  let ar: { QrLink: string; CAE: string; CAEFchVto: string };
  /** Poland's retrieve once KSeF accepted it: its KOD I link and KSeF number. */
  let pl: { QrLink: string; KsefNumber: string };
  /** The QR text JoFotara returned. */
  let joQr: string;
  /** FIRS's signed QR text and the IRN. */
  let ng: { qr: string; irn: string };
  /** Per area: the document id, its number, its amount due as printed, and where its XML route is with its header. */
  const documents: Record<string, { id: string; number: string; payable: string; xml: string; headers: Record<string, string> }> = {};

  beforeAll(async () => {
    stack = await startAreasStack('e2e document views', { workers: { KSEF_SANDBOX_LIMITS: '1000/10000/100000' } });
    ({ client, other } = stack);
    const { onboard, submitted } = stack;

    const receiverVat = deVat();
    const de = await onboard('/de/einvoice/onboard', deSupplier(receiverVat));
    const be = await onboard('/be/einvoice/onboard', beSeller());
    const beId = (await submitted('/be/einvoice/generate/invoice', beInvoice(id('BE'), receiverVat), { supplier_uuid: be })).data.DocumentID;
    documents.be = { id: beId, number: id('BE'), payable: '80.00', xml: `/be/einvoice/get-document/${beId}/xml`, headers: { supplier_uuid: be } };

    const sg = await onboard('/sg/einvoice/onboard', sgSupplier(sgUen()));
    const sgId = (await submitted('/sg/einvoice/generate/invoice', sgInvoice(id('SG')), { supplier_uuid: sg })).data.DocumentID;
    documents.sg = { id: sgId, number: id('SG'), payable: '218.00', xml: `/sg/einvoice/get-document/${sgId}/xml`, headers: { supplier_uuid: sg } };

    const ae = await onboard('/v1/participants', aeParticipant(aeTin(), 'شركة الخليج للأدوات ذ.م.م'));
    const aeAnswer = (await submitted(`/v1/participants/${ae}/documents`, aeInvoice(id('AE')))).data;
    // The number as the UBL states it (the list's is prefixed by the year the UAE area keys its numbers by).
    documents.ae = { id: aeAnswer.document_id, number: id('AE'), payable: '1050.00', xml: `/v1/participants/${ae}/documents/${aeAnswer.document_id}/xml`, headers: {} };
    // The same in US dollars, with its VAT and total with VAT in AED at 3.6725 (PINT AE IBT-111, BTAE-20).
    const aeUsd = (await submitted(`/v1/participants/${ae}/documents`, { ...aeInvoice(id('AE-USD')), document_currency: 'USD', exchange_rate: '3.6725', total_tax_amount_in_aed: '183.63', total_amount_with_tax_in_aed: '3856.13' })).data;
    documents.aeUsd = { id: aeUsd.document_id, number: id('AE-USD'), payable: '1050.00', xml: '', headers: {} };

    const es = (await client.post('/es/verifactu/onboard', esIssuer)).body.data.participant_id;
    const record = (await submitted('/es/verifactu/generate', esInvoice(id('ES/1')), { 'participant-id': es })).message;
    esQr = record.qr_link;
    documents.es = { id: record.uuid, number: id('ES/1'), payable: '121.00', xml: '', headers: {} };

    const cuit = freshCuit();
    const arSupplier = await onboard('/ar/einvoice/onboard', { cuit, legal_name: 'Comercio Ñandú SRL', points_of_sale: [1] });
    const voucher = await submitted('/ar/einvoice/create-voucher', arVoucher, { cuit });
    expect(voucher.Resultado).toBe('A');
    ar = { QrLink: voucher.QrLink, CAE: voucher.FeDetResp[0].CAE, CAEFchVto: voucher.FeDetResp[0].CAEFchVto };
    const arListed = (await client.get(`/v1/documents?supplier_id=${arSupplier}`)).body.data[0];
    documents.ar = { id: arListed.id, number: `00001-${String(voucher.FeDetResp[0].CbteDesde).padStart(8, '0')}`, payable: '121.00', xml: '', headers: {} };

    const plId = await onboard('/pl/einvoice/onboard', plSupplier);
    const plDocument = (await submitted('/pl/einvoice/generate/invoice', plInvoice(id('FV/1')), { supplier_uuid: plId, transport_mode: 'ksef' })).data.DocumentID;
    pl = await eventually('KSeF accepted the Polish invoice', async () => {
      const retrieved = (await client.get(`/pl/einvoice/retrieve/${plDocument}`)).body.data;
      return retrieved?.Status === 'Accepted' ? retrieved : undefined;
    }, 60_000);
    documents.pl = { id: plDocument, number: id('FV/1'), payable: '246.00', xml: '', headers: {} };
    // In euros at 4.2345 PLN: its VAT, 46.00 EUR, is 194.79 PLN (FA(3) P_14_1W).
    const plEur = (await submitted('/pl/einvoice/generate/invoice', { ...plInvoice(id('FV/EUR')), DocumentCurrencyCode: 'EUR', ExchangeRate: 4.2345 }, { supplier_uuid: plId, transport_mode: 'ksef' })).data.DocumentID;
    documents.plEur = { id: plEur, number: id('FV/EUR'), payable: '246.00', xml: '', headers: {} };

    const jo = await onboard('/jo/supplier/onboard', joSupplier());
    const joAnswer = await submitted('/jo/einvoice/generate', joInvoice(id('JO'), 'مكتبة إربد'), { 'participant-id': jo });
    joQr = joAnswer.message.qr_code;
    const joListed = (await client.get(`/v1/documents?supplier_id=${jo}`)).body.data[0];
    documents.jo = { id: joListed.id, number: id('JO'), payable: '11.600', xml: '', headers: {} };

    const ngId = await onboard('/api/auth/taxpayer/login', ngTaxpayer());
    const ngAnswer = (await submitted('/api/invoice/generate', ngInvoice(id('NG')), { 'participant-id': ngId })).data;
    ng = { qr: ngAnswer.qr_code, irn: ngAnswer.irn };
    const ngListed = (await client.get(`/v1/documents?supplier_id=${ngId}`)).body.data[0];
    documents.ng = { id: ngListed.id, number: id('NG'), payable: '322.50', xml: '', headers: {} };

    // The Belgian invoice, as the German supplier received it.
    const received = await eventually('the German supplier received the Belgian invoice', async () => {
      const list = await client.get(`/v1/documents?direction=incoming&supplier_id=${de}`);
      return list.body.data[0] as { id: string } | undefined;
    }, 60_000);
    documents.de = { id: received.id, number: id('BE'), payable: '80.00', xml: `/de/einvoice/get-document/${received.id}/xml`, headers: { supplier_uuid: de } };
  }, 150_000);

  afterAll(async () => {
    await stack?.stop();
    reader.remove();
  });

  it.each(['be', 'de', 'sg', 'ae'])('%s: the PDF shows the number and the amount due, and is PDF/A-3 with the UBL its XML route serves', async (area) => {
    const document = documents[area];
    const answer = await client.bytes(`/v1/documents/${document.id}/pdf`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    const text = reader.text(answer.body);
    expect(text).toContain(document.number);
    expect(text).toMatch(new RegExp(`Amount due.*${document.payable.replace('.', '\\.')}`));
    const xml = await client.bytes(document.xml, document.headers);
    expect(xml.status).toBe(200);
    const attachments = reader.attachments(answer.body);
    expect(attachments.map((a) => a.name)).toEqual([`${document.number.replace(/[^A-Za-z0-9._-]+/g, '_')}.xml`]);
    expect(attachments[0].bytes.equals(xml.body)).toBe(true);
    const meta = reader.metadata(answer.body);
    expect(meta).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(meta).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
    // No regime mark on a Peppol document: nothing to scan.
    expect(reader.qrCodes(answer.body)).toEqual([]);
  });

  it('es: the PDF carries the AEAT\'s QR, decoding to exactly the ValidarQR link the record answered, with its caption and legend', async () => {
    const answer = await client.bytes(`/v1/documents/${documents.es.id}/pdf`);
    expect(answer.status).toBe(200);
    expect(esQr).toMatch(/^https:\/\/prewww2\.aeat\.es\/wlpl\/TIKE-CONT\/ValidarQR\?nif=89890001K&numserie=/);
    expect(reader.qrCodes(answer.body)).toEqual([esQr]);
    const text = reader.text(answer.body).replace(/\s+/g, ' ');
    expect(text).toContain(documents.es.number);
    expect(text).toContain('QR tributario:');
    expect(text).toContain('Factura verificable en la sede electrónica de la AEAT');
    expect(text).toMatch(/Amount due \/ Total a pagar 121\.00 EUR/);
    // Not a Peppol document: nothing attached.
    expect(reader.attachments(answer.body)).toEqual([]);
    const html = (await client.get(`/v1/documents/${documents.es.id}/html`)).body as string;
    expect(html).toContain('Factura verificable en la sede electrónica de la AEAT');
    expect(html).toContain(`aria-label="${esQr.replace(/&/g, '&amp;')}"`);
  });

  it('ar: the PDF carries AFIP\'s QR, decoding to exactly the link create-voucher answered, with "CAE N°" and its due date', async () => {
    const answer = await client.bytes(`/v1/documents/${documents.ar.id}/pdf`);
    expect(answer.status).toBe(200);
    expect(ar.QrLink).toMatch(/^https:\/\/www\.afip\.gob\.ar\/fe\/qr\/\?p=/);
    expect(reader.qrCodes(answer.body)).toEqual([ar.QrLink]);
    const text = reader.text(answer.body).replace(/\s+/g, ' ');
    expect(text).toContain(documents.ar.number);
    expect(text).toContain(`CAE N°: ${ar.CAE}`);
    expect(text).toContain(`Fecha de Vto. de CAE: ${ar.CAEFchVto.slice(6, 8)}/${ar.CAEFchVto.slice(4, 6)}/${ar.CAEFchVto.slice(0, 4)}`);
    expect(text).toContain('Comercio Ñandú SRL');
    expect(text).toMatch(/Amount due \/ Total a pagar 121\.00 PES/);
  });

  it('pl: the PDF carries the KSeF number and KOD I, decoding to exactly the link retrieve answers, labels in Polish', async () => {
    const answer = await client.bytes(`/v1/documents/${documents.pl.id}/pdf`);
    expect(answer.status).toBe(200);
    expect(pl.QrLink).toMatch(/^https:\/\/qr-test\.ksef\.mf\.gov\.pl\/invoice\/5260250274\/25-11-2026\//);
    expect(reader.qrCodes(answer.body)).toEqual([pl.QrLink]);
    const text = reader.text(answer.body).replace(/\s+/g, ' ');
    expect(text).toContain(documents.pl.number);
    expect(text).toContain(pl.KsefNumber);
    expect(text).toContain('KOD I');
    expect(text).toContain('Nabywca Łódź S.A.');
    expect(text).toMatch(/Amount due \/ Do zapłaty 246\.00 PLN/);
  });

  it('jo: the PDF carries exactly the QR JoFotara returned, with the totals JoFotara was sent', async () => {
    const answer = await client.bytes(`/v1/documents/${documents.jo.id}/pdf`);
    expect(answer.status).toBe(200);
    expect(joQr).toEqual(expect.any(String));
    expect(reader.qrCodes(answer.body)).toEqual([joQr]);
    const text = reader.text(answer.body).replace(/\s+/g, ' ');
    expect(text).toContain(documents.jo.number);
    expect(text).toMatch(/Amount due \/ .+ 11\.600 JOD/);
    for (const word of ['مكتبة', 'إربد']) expect(text).toContain(word);
  });

  it('ng: the PDF carries exactly FIRS\'s signed QR and the IRN', async () => {
    const answer = await client.bytes(`/v1/documents/${documents.ng.id}/pdf`);
    expect(answer.status).toBe(200);
    expect(ng.qr).toEqual(expect.any(String));
    expect(reader.qrCodes(answer.body)).toEqual([ng.qr]);
    const text = reader.text(answer.body).replace(/\s+/g, ' ');
    expect(text).toContain(documents.ng.number);
    expect(text).toContain(`IRN: ${ng.irn}`);
    expect(text).toMatch(/Amount due 322\.50 NGN/);
  });

  it('jo: the tax breakdown per category and rate, summed from the lines as JoFotara computes them', async () => {
    const text = reader.text((await client.bytes(`/v1/documents/${documents.jo.id}/pdf`)).body).replace(/\s+/g, ' ');
    expect(text).toMatch(/Standard 16 % 10\.000 1\.600/);
  });

  it('pl: an invoice in euros shows its VAT in PLN per rate and in total, as its FA(3) states it (P_14_1W), with the rate', async () => {
    const text = reader.text((await client.bytes(`/v1/documents/${documents.plEur.id}/pdf`)).body).replace(/\s+/g, ' ');
    expect(text).toMatch(/Amount due \/ Do zapłaty 246\.00 EUR/);
    expect(text).toMatch(/46\.00 194\.79/);
    expect(text).toMatch(/Tax total \/ Razem VAT \(PLN\) 194\.79 PLN/);
    expect(text).toContain('1 EUR = 4.2345 PLN');
  });

  it('ae: a document in US dollars shows its tax total and total with tax in AED, and the rate', async () => {
    const text = reader.text((await client.bytes(`/v1/documents/${documents.aeUsd.id}/pdf`)).body).replace(/\s+/g, ' ');
    expect(text).toMatch(/1050\.00 USD/);
    expect(text).toContain('183.63 AED');
    expect(text).toContain('3856.13 AED');
    expect(text).toContain('1 USD = 3.6725 AED');
  });

  it('prints names with diacritics, and the UAE\'s in Arabic with its labels in English and Arabic', async () => {
    expect(reader.text((await client.bytes(`/v1/documents/${documents.be.id}/pdf`)).body)).toContain('Widgets, größe M');
    const ae = reader.text((await client.bytes(`/v1/documents/${documents.ae.id}/pdf`)).body);
    expect(ae).toContain('Tax invoice');
    expect(ae).toContain('TRN');
    // Arabic is laid out right to left: the extracted words, whatever their order, are the name's.
    for (const word of ['شركة', 'الخليج']) expect(ae).toContain(word);
  });

  it.each(['be', 'de', 'sg', 'ae'])('%s: the HTML page shows the same, escaped, with no script', async (area) => {
    const document = documents[area];
    const answer = await client.get(`/v1/documents/${document.id}/html`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = answer.body as string;
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain(document.number);
    expect(html).toContain(document.payable);
    expect(html).not.toMatch(/<script|javascript:|<link|src="http/i);
  });

  it('links the views from the document\'s detail', async () => {
    const detail = (await client.get(`/v1/documents/${documents.be.id}`)).body.data;
    expect(detail.links).toMatchObject({ pdf: `/v1/documents/${documents.be.id}/pdf`, html: `/v1/documents/${documents.be.id}/html` });
    expect((await client.bytes(detail.links.pdf)).status).toBe(200);
  });

  it('answers 404 for another account\'s document and an unknown id, in the one error shape', async () => {
    for (const view of ['pdf', 'html']) {
      const foreign = await other.get(`/v1/documents/${documents.be.id}/${view}`);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ status: expect.any(String), message: expect.any(String), errors: [expect.objectContaining({ code: 'DOCUMENT.NOT_FOUND', severity: 'error' })] });
      expect((await client.get(`/v1/documents/00000000-0000-4000-8000-000000000000/${view}`)).status).toBe(404);
      expect((await client.get(`/v1/documents/not-a-uuid/${view}`)).status).toBe(404);
    }
  });
});

/**
 * #49 Malaysia: a MyInvois document printed from the document MyInvois validated (its row keeps only what the list
 * shows), with the validation link (`{portal}/{uuid}/share/{longId}`, of the uuid and longId GET answers) printed
 * and as its QR; with transport_mode peppol, PDF/A-3 with its PINT MY copy attached, byte for byte what
 * `GET /api/einvoice/documents/{id}/peppol` serves. Its own stack: MyInvois's sandbox in the gateway and the reporting worker.
 */
describe('#49 GET /v1/documents/{id}/pdf and /html: Malaysia (MyInvois)', () => {
  /** Set for the gateway: the links are made on the portal it is told of. */
  const portal = 'https://myinvois.hasil.gov.my';
  let dataSource: DataSource;
  const apps: AppProcess[] = [];
  let client: Client;
  const reader = new PdfTools({ dpi: 200 });
  /** Per transport mode: the document as GET answers it once valid, and its validation link. */
  const valid: Record<string, { documentId: string; number: string; link: string }> = {};
  let supplier: string;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, `e2e document views my ${run}`);
    const gateway = await startGateway({ MYINVOIS_MODE: 'sandbox', MYINVOIS_WAIT_MS: '8000', MYINVOIS_PORTAL_URL: portal });
    apps.push(gateway.app, startApp('reporting-worker', testEnv({ MYINVOIS_MODE: 'sandbox', MYINVOIS_POLL_MS: '300', AUTHORITY_POLL_SWEEP_MS: '100', AUTHORITY_BATCH_SWEEP_MS: '100' })));
    client = new Client(gateway.url, apiKey);
    supplier = await onboardMyInvoisSupplier(client, `client-views-${run}`);
    const { untilState } = myInvoisDocuments(client, () => supplier);
    for (const mode of ['peppol', 'myinvois']) {
      const number = id(`MY-${mode}`);
      const answer = await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: number }), { supplier_uuid: supplier, transport_mode: mode });
      // 202 while the reporting worker starts: MyInvois's answer then comes by GET.
      expect([200, 202]).toContain(answer.status);
      const document = await untilState(number, 'valid');
      valid[mode] = { documentId: document.documentId, number, link: `${portal}/${document.uuid}/share/${document.longId}` };
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await dataSource?.destroy();
    reader.remove();
  });

  it('the PDF shows the number, the amount due and the validation link; its QR decodes to exactly that link', async () => {
    for (const document of Object.values(valid)) {
      const answer = await client.bytes(`/v1/documents/${document.documentId}/pdf`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/pdf');
      expect(reader.qrCodes(answer.body)).toEqual([document.link]);
      const text = reader.text(answer.body);
      expect(text).toContain(document.number);
      expect(text).toMatch(/Amount due\s+106\.00 MYR/);
      expect(text).toContain('Validated by LHDN MyInvois');
      // Printed full width under References: a line break in the link is the only white space pdftotext puts in it.
      expect(text.replace(/\s+/g, '')).toContain(`MyInvoisvalidationlink:${document.link}`);
    }
  });

  it('with transport_mode peppol: PDF/A-3 with the PINT MY copy attached, byte for byte what the peppol route serves; without, nothing attached', async () => {
    const pdf = (await client.bytes(`/v1/documents/${valid.peppol.documentId}/pdf`)).body;
    const copy = await client.bytes(`/api/einvoice/documents/${valid.peppol.documentId}/peppol`, { supplier_uuid: supplier });
    expect(copy.status).toBe(200);
    const attachments = reader.attachments(pdf);
    expect(attachments.map((a) => a.name)).toEqual([`${valid.peppol.number}.xml`]);
    expect(attachments[0].bytes.equals(copy.body)).toBe(true);
    expect(reader.metadata(pdf)).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(reader.attachments((await client.bytes(`/v1/documents/${valid.myinvois.documentId}/pdf`)).body)).toEqual([]);
  });

  it('the HTML page shows the same, the QR\'s link in its label, and the detail links both views', async () => {
    const { documentId, number, link } = valid.myinvois;
    const html = (await client.get(`/v1/documents/${documentId}/html`)).body as string;
    expect(html).toContain(number);
    expect(html).toContain('106.00');
    expect(html).toContain(`aria-label="${link}"`);
    expect(html).not.toMatch(/<script|javascript:|<link|src="http/i);
    expect((await client.get(`/v1/documents/${documentId}`)).body.data.links).toMatchObject({ pdf: `/v1/documents/${documentId}/pdf`, html: `/v1/documents/${documentId}/html` });
  });
});

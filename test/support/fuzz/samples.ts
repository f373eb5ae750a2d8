import crypto from 'node:crypto';
/**
 * A valid body for each request schema of the OpenAPI document, per area (the fuzz suite mutates
 * them one place at a time). `ID` placeholders are replaced by a fresh number per request, so a
 * variant is never refused as a duplicate before its bad value is looked at.
 */
import { beInvoice, customers } from '../../../libs/areas/src/peppol-ubl/fixtures/bodies';
import { generalPublic, invoiceBody, onboardingBody, selfBilledBody } from '../../../libs/areas/src/myinvois/fixtures/bodies';
import { invoice as uaeInvoice } from '../../../libs/areas/src/uae/fixtures/bodies';
import { beVat, deVat, sgUen } from '../identifiers';

export type FuzzArea = 'be' | 'de' | 'sg' | 'my' | 'toy' | 'ae' | 'es' | 'pl' | 'none';

export const FRESH_ID = 'FUZZ-FRESH-ID';

const peppolIdentifiers = { be: () => [{ scheme: 'BE:VAT', id: beVat() }], de: () => [{ scheme: 'DE:VAT', id: deVat() }], sg: () => [{ scheme: 'SG:UEN', id: sgUen() }] };
const countries = { be: 'BE', de: 'DE', sg: 'SG' } as const;
const lines = {
  be: [{ Description: 'Consulting', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }],
  de: [{ Description: 'Beratung', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 19, TaxType: 'standard', TaxCountry: 'DE' } }],
  sg: [{ Description: 'Consulting', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 9, TaxType: 'standard', TaxCountry: 'SG' } }],
};
const totals = { be: 121, de: 119, sg: 109 };

/** The sample of `schema` for `area`, or undefined when there is none (the suite then sends `{}`-based variants). */
export function sampleBody(schema: string, area: FuzzArea): Record<string, unknown> | undefined {
  const peppol = area === 'be' || area === 'de' || area === 'sg' ? area : undefined;
  switch (schema) {
    case 'OnboardingBody':
      return peppol && {
        registered_name: 'Fuzz Widgets', identifiers: peppolIdentifiers[peppol](), city: 'City', street: 'Street 1', country: countries[peppol],
        contact_number: '+3221234567', postal_code: '1000', contact_name: 'Ann Example', contact_email: 'ann@example.com',
      };
    case 'InvoiceBody':
      return peppol && beInvoice({
        ID: FRESH_ID, DocumentType: peppol === 'sg' ? 'Invoice' : '380', CustomerParty: customers[peppol], InvoiceLines: lines[peppol], TotalIncludingVat: totals[peppol],
        DocumentCurrencyCode: peppol === 'sg' ? 'SGD' : 'EUR', Note: 'A note', DueDate: '2026-04-15', BuyerReference: 'PO-1', PaymentTerms: '30 days',
        PaymentMeans: { Code: '58', AccountID: 'DE89370400440532013000', AccountName: 'Fuzz' },
      });
    case 'MyInvoisOnboardingBody':
      return onboardingBody({ tin_number: 'C25845632020' });
    case 'TinValidationBody':
      return { tin_number: 'C25845632020', id_type: 'BRN', id_value: '202001234567' };
    case 'InvoiceDocument':
      return invoiceBody({ ID: FRESH_ID, InvoiceTotal: 106 });
    case 'ConsolidatedDocument':
      return invoiceBody({ ID: FRESH_ID, CustomerParty: generalPublic });
    case 'SelfBilledDocument':
      return selfBilledBody({ ID: FRESH_ID, InvoiceLines: [{ Description: 'Fruit', InvoicedQuantity: 1, PriceAmount: 10, LineTaxes: [{ TaxType: '06' }], ClassificationCode: ['022'] }] });
    case 'ReasonBody':
      return { reason: 'Wrong buyer' };
    case 'CreateWebhookBody':
      return { url: 'https://example.com/hooks/einvoice', events: ['PeppolReceived'], description: 'Fuzz hook' };
    // A public address literal: registering resolves no host name.
    case 'CreateAccountWebhookBody':
      return { url: 'https://93.184.215.14/hooks/einvoice', events: ['document.reported'], areas: ['pl'], description: 'Fuzz hook' };
    case 'UpdateAccountWebhookBody':
      return { events: ['document.reported'], description: 'Fuzz hook', status: 'disabled' };
    case 'TestAccountWebhookBody':
      return { type: 'document.reported' };
    case 'CreateParticipantBody':
      return { participantIdentifier: `iso6523-actorid-upis::0208:${beVat().slice(2)}`, businessEntity: [{ names: { name: [{ language: 'en', name: 'Fuzz Participant' }] }, countryCode: 'BE' }] };
    case 'KycCompletionBody':
      return { method: 'PDF_AUTHORIZATION_DOCUMENT', fileName: 'kyc.pdf', content: Buffer.from('%PDF-1.4 fuzz').toString('base64') };
    case 'ToyOnboardingBody':
      return { registered_name: 'Fuzz Toys', tax_id: `TOY${String(Date.now() % 1e6).padStart(6, '0')}` };
    case 'UaeParticipantBody': {
      const tin = `1${String(crypto.randomInt(1e9)).padStart(9, '0')}`;
      return { peppol_id: `0235:${tin}`, legal_name: 'Fuzz Widgets LLC', trn: `${tin}00003`, legal_id: { id: `TL-${tin}`, scheme: 'TL', authority: 'Dubai Economy and Tourism' }, street_address: 'Street 1', city: 'Dubai', emirates_code: 'DXB', country_code: 'AE' };
    }
    case 'UaeDocument':
      // `country` is the Unified API's discriminator; the Regional API drops it as an unknown key.
      return { country: 'AE', ...uaeInvoice({ document_identifier: FRESH_ID, note: 'A note', buyer_reference: 'PO-1' }) };
    case 'OAuthTokenRequest':
      return { grant_type: 'client_credentials', client_id: 'client_unknown', client_secret: 'cs_unknown' };
    case 'VerifactuOnboardingBody':
      return { nif: '89890001K', name: 'Fuzz Empresa SL' };
    case 'VerifactuReportBody':
      return {
        document_identifier: FRESH_ID, issue_date: '2026-11-25', invoice_type: 'F1', description: 'Fuzz', recipient: { nif: 'B00000000', name: 'Cliente SA' },
        taxlines: [{ tax_base: 100, tax_rate: 21, repercutida_quota: '21.00' }], total_amount: '121.00',
      };
    case 'VerifactuRectifyBody':
      return {
        document_identifier: FRESH_ID, issue_date: '2026-11-25', invoice_type: 'R1', description: 'Fuzz', recipient: { nif: 'B00000000', name: 'Cliente SA' },
        nif: '89890001K', name: 'Fuzz Empresa SL', rectification_type: 'I', rectified_invoices: [{ document_identifier: 'F-1', issue_date: '2026-11-25' }],
        taxlines: [{ taxable_base: 100, tax_rate: 21, charged_tax: 21 }], total_amount: 121,
      };
    case 'VerifactuCancelBody':
      return { document_identifier: 'F-1', issue_date: '2026-11-25' };
    case 'KsefOnboardingBody':
      return { registered_name: 'Fuzz Sp. z o.o.', identifiers: [{ scheme: 'PL:NIP', id: '5260250274' }], street: 'ul. Prosta 1', city: 'Warszawa', postal_code: '00-001', country: 'PL' };
    case 'KsefInvoiceBody':
      return {
        ID: FRESH_ID, DocumentType: 'Invoice', IssueDate: '2026-11-25',
        CustomerParty: { RegisteredName: 'Nabywca S.A.', address: { Street: 'ul. Krzywa 2', ZipCode: '30-001', City: 'Kraków', Country: 'PL' }, Identifiers: [{ Scheme: 'PL:NIP', ID: '1234563218' }] },
        InvoiceLines: [{ Description: 'Usługa', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 23, TaxType: 'standard', TaxCountry: 'PL' } }], TotalIncludingVat: 123,
      };
    case 'AccessCodeBody':
      return { document_id: crypto.randomUUID(), recipient_email: 'fuzz@example.com' };
    case 'ToyDocumentBody':
      return { ID: FRESH_ID, IssueDate: '2026-11-24', Total: 10.5, Note: 'note' };
    default:
      return undefined;
  }
}

/** A well-formed value of a path parameter, so that a request gets past its format check (an unknown one answers 404). */
export function samplePathParam(name: string, path: string): string {
  if (name === 'pid' || name === 'participantId') return encodeURIComponent('iso6523-actorid-upis::0208:0123456749');
  if (name === 'documentTypeId') {
    return encodeURIComponent('busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1');
  }
  if (path.startsWith('/api/einvoice/received/')) return 'F9D425P6DS7D8IU4A8R5EY2K10';
  return crypto.randomUUID();
}

/** Headers an area's submissions need besides the supplier (MyInvois: transport_mode). */
export const areaHeaders: Partial<Record<FuzzArea, Record<string, string>>> = { my: { transport_mode: 'myinvois' }, pl: { transport_mode: 'ksef' } };

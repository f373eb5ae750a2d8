// Event data for integration tests of the document aggregate.
import { randomUUID } from 'node:crypto';
import type { DocumentSubmittedData } from '@einvoice/domain';

/** A UBL invoice reduced to what names its Peppol document type and process (BIS Billing 3.0). */
export const MINIMAL_PEPPOL_INVOICE =
  '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">' +
  '<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>' +
  '<cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID></Invoice>';

/**
 * The same with a number and its seller's country (BE): what the live access point reads of a document
 * for its envelope (document type, process, COUNTRY_C1, the seller's country when the event names none).
 */
export const PEPPOL_INVOICE_FROM_BE = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>
<cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID><cbc:ID>INV-1</cbc:ID>
<cac:AccountingSupplierParty><cac:Party><cac:PostalAddress><cac:Country><cbc:IdentificationCode>BE</cbc:IdentificationCode></cac:Country></cac:PostalAddress></cac:Party></cac:AccountingSupplierParty>
</Invoice>`;

/** A submitted Belgian invoice with fresh ids (unique document number and participants). */
export function documentSubmitted(overrides: Partial<DocumentSubmittedData> = {}): DocumentSubmittedData {
  const documentId = randomUUID();
  return {
    documentId,
    tenantId: randomUUID(),
    supplierId: randomUUID(),
    area: 'be',
    documentNumber: `INV-${documentId.slice(0, 8)}`,
    documentType: '380',
    transportMode: 'peppol',
    senderParticipantId: `iso6523-actorid-upis::9925:sender-${documentId}`,
    receiverParticipantId: `iso6523-actorid-upis::9925:receiver-${documentId}`,
    fields: { ID: 'x' },
    countryC1: 'BE',
    // The least a delivery reads of a Peppol document: its document type and process (#46).
    xml: MINIMAL_PEPPOL_INVOICE,
    submittedAt: new Date().toISOString(),
    ...overrides,
  };
}

/**
 * A Belgian supplier's invoice (seed 002 body) to a German buyer hosted here, by the buyer's VAT id:
 * zero-rated intra-community supply, 2 × 40 EUR. The e2e tests that follow one document from a BE
 * sender to a DE receiver's webhook send it.
 */
export function intraCommunityInvoice(ID: string, buyerVat: string) {
  return {
    ID, DocumentType: '380', IssueDate: '2026-03-15',
    CustomerParty: { RegisteredName: 'Berliner Teile GmbH', address: { Street: 'Unter den Linden 1', ZipCode: '10117', City: 'Berlin', Country: 'DE' }, Identifiers: [{ Scheme: 'DE:VAT', ID: buyerVat }] },
    InvoiceLines: [{ Description: 'Widgets', PriceAmount: 40, InvoicedQuantity: 2, TaxType: { TaxRate: 0, TaxType: 'intra_community', TaxCountry: 'BE' } }],
    TotalIncludingVat: 80,
  };
}

/**
 * `transport_mode: peppol`: the Peppol BIS Billing 3.0 copy of a Polish invoice, for a buyer with a
 * Peppol id (README.md "Peppol copy"). The invoice body is the BE/DE/SG shape, so the copy is the
 * Peppol area's own BIS 3.0 rendering under a Polish profile (seller 9945:PL<NIP>, PLN, Polish VAT);
 * its rules run at submission (a copy that cannot be rendered is a 400 naming the field), and the
 * reporting worker sends it only once KSeF has accepted the invoice.
 */
import { type FieldIssue, type SupplierProfile } from '@einvoice/domain';
import { bis, type AreaProfile } from '../peppol-ubl/profiles';
import { participantIdFor, resolveIdentifier } from '../peppol-ubl/identifiers';
import { renderDocument } from '../peppol-ubl/render';
import { checkInvoice } from '../peppol-ubl/rules';
import type { InvoiceDto, TaxTypeName } from '../peppol-ubl/schema';
import type { PeppolCopy } from '../registry/area';
import { issue } from '@einvoice/domain';
import type { KsefInvoiceBody } from './schema';

const POLISH_BIS: AreaProfile = { ...bis, code: 'pl', country: 'PL', defaultCurrency: 'PLN', identifierSchemes: ['PL:NIP'], requiredSchemes: ['PL:NIP'] };

/** The seed's Polish TaxType names as BIS 3.0 categories (UNCL5305): README.md "Peppol copy". */
const CATEGORY: Readonly<Record<string, TaxTypeName>> = {
  standard: 'standard',
  reduced: 'reduced',
  zero: 'zero',
  intra_eu: 'intra_community',
  export: 'export',
  exempt: 'exempt',
  reverse_charge: 'reverse_charge',
  not_subject: 'outside_scope',
  not_subject_services: 'outside_scope',
};

/**
 * The invoice as a BIS 3.0 document: an `Invoice` is a commercial invoice (380); a `CorrectionInvoice`
 * an invoice (380) when it adds to the total, a credit note (381, quantities negated so it states
 * what is credited) when it takes away; either way referring to the corrected invoice (BG-3).
 */
function bisInvoiceOf(dto: KsefInvoiceBody): InvoiceDto {
  const credit = dto.DocumentType === 'CorrectionInvoice' && dto.TotalIncludingVat < 0;
  const sign = credit ? -1 : 1;
  return {
    ID: dto.ID,
    DocumentType: credit ? '381' : '380',
    IssueDate: dto.IssueDate,
    DocumentCurrencyCode: dto.DocumentCurrencyCode ?? 'PLN',
    BuyerReference: dto.ID,
    CustomerParty: dto.CustomerParty,
    InvoiceLines: dto.InvoiceLines.map((line) => ({
      Description: line.Description,
      PriceAmount: line.PriceAmount,
      InvoicedQuantity: sign * (line.InvoicedQuantity ?? 1),
      TaxType: {
        TaxRate: line.TaxType.TaxRate,
        TaxType: CATEGORY[line.TaxType.TaxType],
        TaxCountry: line.TaxType.TaxCountry,
        ...(line.TaxType.TaxType === 'exempt' && dto.ExemptionReason ? { TaxExemptionReason: dto.ExemptionReason } : {}),
      },
    })),
    TotalIncludingVat: sign * dto.TotalIncludingVat,
    ...(dto.CorrectedInvoice ? { BillingReference: { ID: dto.CorrectedInvoice.ID, IssueDate: dto.CorrectedInvoice.IssueDate } } : {}),
    ...(dto.CorrectionReason ? { Note: dto.CorrectionReason } : {}),
  } as InvoiceDto;
}

/** What keeps the copy from being sent: the buyer's Peppol id, then every BIS 3.0 rule, at the body's own fields. */
export function peppolCopyIssues(dto: KsefInvoiceBody, supplier: SupplierProfile): FieldIssue[] {
  const [first] = dto.CustomerParty.Identifiers;
  if (!resolveIdentifier(first.Scheme, first.ID)) {
    return [issue('CustomerParty.Identifiers[0]', 'KSEF.PEPPOL_RECEIVER', `transport_mode peppol needs the buyer's Peppol id first in CustomerParty.Identifiers (a scheme such as PL:NIP, BE:VAT, DE:VAT or an EAS code such as 0208); ${first.Scheme} ${first.ID} is not one.`)];
  }
  return checkInvoice(POLISH_BIS, bisInvoiceOf(dto), supplier);
}

/** The invoice as BIS 3.0 UBL, from the body the FA(3) is rendered from: the Peppol copy's XML, and what the printed view reads (printable.ts). */
export function bisUblOf(dto: KsefInvoiceBody, supplier: SupplierProfile, documentId: string): string {
  return renderDocument(POLISH_BIS, bisInvoiceOf(dto), supplier, documentId);
}

/** The copy itself (its rules already passed). */
export function peppolCopyOf(dto: KsefInvoiceBody, supplier: SupplierProfile, documentId: string): PeppolCopy {
  const invoice = bisInvoiceOf(dto);
  const [buyer] = dto.CustomerParty.Identifiers;
  const nip = supplier.identifiers.find((i) => i.scheme === 'PL:NIP')!;
  return {
    documentType: invoice.DocumentType,
    senderParticipantId: participantIdFor(nip.scheme, nip.id),
    receiverParticipantId: participantIdFor(buyer.Scheme, buyer.ID),
    xml: bisUblOf(dto, supplier, documentId),
  };
}

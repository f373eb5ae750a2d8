/**
 * What a Tax Data Document says of the invoice it reports (national-systems-detail.md §6 "TDD":
 * the ReportedDocument carries only identifiers, dates, type, currencies, the seller's tax
 * registration, the buyer's identifiers, the tax total per currency and the amount without tax),
 * read from the UBL as it travelled: ours (C2) or another access point's (C3), so namespaces are
 * resolved and prefixes do not matter.
 */
import { AppError } from '@einvoice/domain';
import { all, first, parseXml, textAt, XmlSyntaxError, type XmlElement } from '../../shared/xml-read';
import { NS } from './namespaces';

/** An identifier with its scheme (`schemeID`), e.g. an EndpointID `0235` + `1234567890`. */
export interface SchemedId {
  readonly id: string;
  readonly scheme?: string;
}

/** A PartyTaxScheme: CompanyID (IBT-031 TRN under `VAT`, IBT-032 TIN under `TIN`) and its scheme. */
export interface TaxRegistration {
  readonly companyId: string;
  readonly taxScheme: string;
}

/** An amount as the UBL writes it (text kept, so nothing is re-rounded). */
export interface StatedAmount {
  readonly value: string;
  readonly currency: string;
}

/** One party of the invoice as the TDD needs it. */
export interface PartyFacts {
  readonly endpoint?: SchemedId;
  readonly identifications: readonly SchemedId[];
  readonly taxRegistrations: readonly TaxRegistration[];
}

/** The invoice or credit note being reported. */
export interface SourceDocument {
  readonly root: 'Invoice' | 'CreditNote';
  readonly customizationId?: string; // IBT-024
  readonly profileId?: string; // IBT-023
  readonly id?: string; // IBT-001
  readonly uuid?: string; // BTAE-07
  readonly issueDate?: string; // IBT-002
  readonly typeCode?: string; // IBT-003
  readonly currency?: string; // IBT-005
  readonly taxCurrency?: string; // IBT-006
  /** PINT AE self-billing (CustomizationID `selfbilling`, types 389/261): the buyer issues and sends it. */
  readonly selfBilled: boolean;
  readonly seller: PartyFacts; // IBG-04
  readonly buyer: PartyFacts; // IBG-07
  /** IBT-110 and, in a foreign currency, IBT-111 (in the tax currency). */
  readonly taxTotals: readonly StatedAmount[];
  readonly taxExclusive?: StatedAmount; // IBT-109
  /** BTAE-20: the total with VAT in AED of a foreign-currency document (`aedtotal-incl-vat` reference). */
  readonly aedTotalWithTax?: string;
  /** The root element's text in the source, without prolog (what the TDD embeds as its SourceDocument). */
  readonly xml: string;
}

const SELF_BILLED_TYPES = new Set(['389', '261']);

/** The UBL could not be read as an Invoice or CreditNote: nothing can be reported (a retry cannot fix it). */
export function unreadableDocument(reason: string, cause?: unknown): AppError {
  const message = `The document cannot be reported to the FTA: ${reason}`;
  return new AppError('validation', 'UAE_FTA.UNREADABLE_DOCUMENT', message, { retriable: false, cause });
}

function schemed(el: XmlElement | undefined): SchemedId | undefined {
  const id = el?.text.trim();
  return id ? { id, scheme: el?.attrs.schemeID?.trim() || undefined } : undefined;
}

function party(root: XmlElement, role: 'AccountingSupplierParty' | 'AccountingCustomerParty'): PartyFacts {
  const p = first(root, [NS.cac, role], [NS.cac, 'Party']);
  return {
    endpoint: schemed(first(p, [NS.cbc, 'EndpointID'])),
    identifications: all(p, [NS.cac, 'PartyIdentification'], [NS.cbc, 'ID']).map(schemed).filter((i): i is SchemedId => i !== undefined),
    taxRegistrations: all(p, [NS.cac, 'PartyTaxScheme']).flatMap((t) => {
      const companyId = textAt(t, [NS.cbc, 'CompanyID']);
      const taxScheme = textAt(t, [NS.cac, 'TaxScheme'], [NS.cbc, 'ID']);
      return companyId && taxScheme ? [{ companyId, taxScheme }] : [];
    }),
  };
}

function amount(el: XmlElement | undefined): StatedAmount | undefined {
  const value = el?.text.trim();
  const currency = el?.attrs.currencyID?.trim();
  return value && currency ? { value, currency } : undefined;
}

/** BTAE-20 as the official examples and renderUae state it: `AED <amount>` under `aedtotal-incl-vat`. */
export function aedTotal(root: XmlElement): string | undefined {
  const ref = all(root, [NS.cac, 'AdditionalDocumentReference']).find((r) => textAt(r, [NS.cbc, 'DocumentTypeCode']) === 'aedtotal-incl-vat');
  const stated = textAt(ref, [NS.cbc, 'DocumentDescription']);
  return stated?.replace(/^AED\s*/i, '') || undefined;
}

/** Reads the reported document from its UBL bytes. @throws AppError `UAE_FTA.UNREADABLE_DOCUMENT` */
export function readSourceDocument(ubl: string): SourceDocument {
  let root: XmlElement;
  try {
    root = parseXml(ubl);
  } catch (error) {
    if (error instanceof XmlSyntaxError) throw unreadableDocument(`it is not well-formed XML (${error.message}).`, error);
    throw error;
  }
  const kind = root.ns === NS.invoice && root.name === 'Invoice' ? 'Invoice'
    : root.ns === NS.creditNote && root.name === 'CreditNote' ? 'CreditNote'
    : undefined;
  if (!kind) throw unreadableDocument(`its root is {${root.ns}}${root.name}, not a UBL 2.1 Invoice or CreditNote.`);
  const customizationId = textAt(root, [NS.cbc, 'CustomizationID']);
  const typeCode = textAt(root, [NS.cbc, kind === 'Invoice' ? 'InvoiceTypeCode' : 'CreditNoteTypeCode']);
  return {
    root: kind,
    customizationId,
    profileId: textAt(root, [NS.cbc, 'ProfileID']),
    id: textAt(root, [NS.cbc, 'ID']),
    uuid: textAt(root, [NS.cbc, 'UUID']),
    issueDate: textAt(root, [NS.cbc, 'IssueDate']),
    typeCode,
    currency: textAt(root, [NS.cbc, 'DocumentCurrencyCode']),
    taxCurrency: textAt(root, [NS.cbc, 'TaxCurrencyCode']),
    selfBilled: (customizationId ?? '').includes('selfbilling') || SELF_BILLED_TYPES.has(typeCode ?? ''),
    seller: party(root, 'AccountingSupplierParty'),
    buyer: party(root, 'AccountingCustomerParty'),
    taxTotals: all(root, [NS.cac, 'TaxTotal']).map((t) => amount(first(t, [NS.cbc, 'TaxAmount']))).filter((a): a is StatedAmount => a !== undefined),
    taxExclusive: amount(first(root, [NS.cac, 'LegalMonetaryTotal'], [NS.cbc, 'TaxExclusiveAmount'])),
    aedTotalWithTax: aedTotal(root),
    xml: ubl.slice(root.start, root.end),
  };
}

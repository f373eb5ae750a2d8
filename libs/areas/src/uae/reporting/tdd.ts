/**
 * The Tax Data Document (national-systems-detail.md §6 "TDD"; OpenPeppol AE TDD Schematron 1.0,
 * rules `ibr-tdd-*`): the access point's report of one PINT AE invoice to the FTA, `pxs:TaxData`
 * carrying a projection of the invoice (ReportedDocument) and the invoice itself (SourceDocument).
 * Pure: the clock and the identifiers come in.
 */
import { el, toXml, type XmlNode } from '../../shared/xml';
import { readSourceDocument, type PartyFacts, type SchemedId, type SourceDocument, type TaxRegistration } from './source-document';
import { NS } from './namespaces';

/** TDT-001 (ibr-tdd-01). */
export const TDD_CUSTOMIZATION_ID = 'urn:peppol:taxdata:ae-1';
/** TDT-002 (ibr-tdd-02); also the Peppol process of the send. */
export const TDD_PROFILE_ID = 'urn:peppol:taxreporting';
/** The Peppol document type of a TDD, and its process, as routed to the FTA (§6 "Transport"). */
export const TDD_DOCUMENT_TYPE_ID = 'busdox-docid-qns::urn:peppol:schema:taxdata:1.0::TaxData##urn:peppol:taxdata:ae-1::1.0';
export const TDD_PROCESS_ID = 'cenbii-procid-ubl::urn:peppol:taxreporting';

/** Who reports: the sender's access point (C2) or, for a received document, the receiver's (C3). */
export type ReporterRole = 'C2' | 'C3';
/** TDT-010 (ibr-tdd-08): 01 the seller side (C2), 02 the buyer side (C3). */
export const REPORTER_ROLE_CODES: Record<ReporterRole, '01' | '02'> = { C2: '01', C3: '02' };

/** What the TDD needs beyond the invoice. */
export interface TddOptions {
  readonly reporterRole: ReporterRole;
  /** The FTA's service-provider id, `0242:<id>` (ReceivingParty, ibr-tdd-17). */
  readonly ftaId: string;
  /** This access point's service-provider id, `0242:<id>` (ReportersRepresentative, ibr-tdd-21). */
  readonly representativeId: string;
  /** When the TDD is made: IssueDate (no zone, ibr-tdd-04) and IssueTime (UTC, ibr-tdd-05). */
  readonly issuedAt: Date;
  /** The SBDH InstanceIdentifier of the send (TransportHeaderID). */
  readonly transportHeaderId?: string;
}

/** A built TDD: its XML and what it was made of. */
export interface Tdd {
  readonly xml: string;
  readonly source: SourceDocument;
  /** The participant the report is about (TDT-007): the invoice's sender for C2, its receiver for C3. */
  readonly reportingParty: SchemedId;
}

/** `0242:000006-TESTBED.3001` → scheme and id. */
export function splitId(value: string): SchemedId {
  const colon = value.indexOf(':');
  return colon < 0 ? { id: value } : { scheme: value.slice(0, colon), id: value.slice(colon + 1) };
}

/**
 * The participant that reports: the sender of the invoice (the seller, or the buyer of a
 * self-billed one) for C2, its receiver for C3. Its Peppol endpoint (IBT-034 / IBT-049) is TDT-007.
 */
export function reportingPartyOf(source: SourceDocument, role: ReporterRole): PartyFacts {
  const senderIsBuyer = source.selfBilled;
  const sender = senderIsBuyer ? source.buyer : source.seller;
  const receiver = senderIsBuyer ? source.seller : source.buyer;
  return role === 'C2' ? sender : receiver;
}

/**
 * Exactly one seller PartyTaxScheme (ibr-tdd-42): the TRN under VAT (IBT-031) when the invoice
 * states one, else its TIN (IBT-032); else, for a `0235` endpoint whose value is a TIN (ibr-148:
 * `1` + 9 digits), that TIN — the participant id is the TIN (§6 "Identifiers"). None otherwise:
 * the FTA then refuses the TDD, as it should.
 */
export function sellerRegistration(seller: PartyFacts): TaxRegistration | undefined {
  const vat = seller.taxRegistrations.find((t) => t.taxScheme === 'VAT');
  if (vat) return vat;
  const tin = seller.taxRegistrations.find((t) => t.taxScheme === 'TIN');
  if (tin) return tin;
  const endpoint = seller.endpoint;
  return endpoint?.scheme === '0235' && /^1\d{9}$/.test(endpoint.id) ? { companyId: endpoint.id, taxScheme: 'TIN' } : undefined;
}

const taxScheme = (t: TaxRegistration): XmlNode =>
  el('cac:PartyTaxScheme', {}, el('cbc:CompanyID', {}, t.companyId), el('cac:TaxScheme', {}, el('cbc:ID', {}, t.taxScheme)));
const identification = (i: SchemedId): XmlNode => el('cac:PartyIdentification', {}, el('cbc:ID', { schemeID: i.scheme }, i.id));

/**
 * The buyer's PartyIdentification and/or PartyTaxScheme (IBT-046, IBT-048). A buyer stating
 * neither is identified by its Peppol endpoint (IBT-049), so that the Party is not empty (ibr-tdd-47).
 */
function buyerParty(buyer: PartyFacts): XmlNode {
  const ids = buyer.identifications.length ? buyer.identifications : buyer.taxRegistrations.length || !buyer.endpoint ? [] : [buyer.endpoint];
  return el('cac:AccountingCustomerParty', {}, el('cac:Party', {}, ...ids.map(identification), ...buyer.taxRegistrations.map(taxScheme)));
}

/** ReportedDocument (TDG-02): only what §6 lists; TaxInclusiveAmount is forbidden (ibr-tdd-54). */
function reportedDocument(s: SourceDocument): XmlNode {
  const seller = sellerRegistration(s.seller);
  return el('pxs:ReportedDocument', {},
    el('cbc:CustomizationID', {}, s.customizationId),
    el('cbc:ProfileID', {}, s.profileId),
    el('cbc:ID', {}, s.id),
    el('cbc:UUID', {}, s.uuid),
    el('cbc:IssueDate', {}, s.issueDate),
    el('pxs:DocumentTypeCode', {}, s.typeCode),
    el('cbc:DocumentCurrencyCode', {}, s.currency),
    // The tax currency only when it differs (ibr-tdd-31).
    el('cbc:TaxCurrencyCode', {}, s.taxCurrency !== s.currency ? s.taxCurrency : undefined),
    el('cac:AccountingSupplierParty', {}, el('cac:Party', {}, seller && taxScheme(seller))),
    buyerParty(s.buyer),
    // Once per currency (ibr-tdd-34..36), the amount only (ibr-tdd-51).
    ...s.taxTotals.map((t) => el('cac:TaxTotal', {}, el('cbc:TaxAmount', { currencyID: t.currency }, t.value))),
    el('pxs:MonetaryTotal', {}, s.taxExclusive && el('cbc:TaxExclusiveAmount', { currencyID: s.taxExclusive.currency }, s.taxExclusive.value)));
}

/** Where the invoice goes; replaced after serialising, since the writer escapes text (the last occurrence is ours). */
const SOURCE_SLOT = '\uE000source-document\uE000';

/** The TDD of one PINT AE invoice (UBL bytes as sent or received). @throws AppError `UAE_FTA.UNREADABLE_DOCUMENT` */
export function buildTdd(ubl: string, options: TddOptions): Tdd {
  const source = readSourceDocument(ubl);
  const party = reportingPartyOf(source, options.reporterRole);
  const reportingParty = party.endpoint ?? { id: '' };
  const fta = splitId(options.ftaId);
  const representative = splitId(options.representativeId);
  const iso = options.issuedAt.toISOString();
  const root = el('pxs:TaxData', { 'xmlns:pxs': NS.pxs, 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc, 'xmlns:cec': NS.cec },
    el('cbc:CustomizationID', {}, TDD_CUSTOMIZATION_ID),
    el('cbc:ProfileID', {}, TDD_PROFILE_ID),
    el('cbc:IssueDate', {}, iso.slice(0, 10)),
    el('cbc:IssueTime', {}, `${iso.slice(11, 19)}Z`),
    // S: a normal report (R and W are not decoded in the public material; F is a failure report).
    el('pxs:DocumentTypeCode', {}, 'S'),
    // D: domestic. IP and INP are not decoded in the public material (README "Reporting to the FTA").
    el('pxs:DocumentScope', {}, 'D'),
    el('pxs:ReporterRole', {}, REPORTER_ROLE_CODES[options.reporterRole]),
    el('pxs:ReportingParty', {}, el('cbc:EndpointID', { schemeID: reportingParty.scheme }, reportingParty.id)),
    el('pxs:ReceivingParty', {}, el('cbc:EndpointID', { schemeID: fta.scheme }, fta.id)),
    el('pxs:ReportersRepresentative', {}, identification(representative)),
    el('pxs:ReportedTransaction', {},
      el('pxs:TransportHeaderID', {}, options.transportHeaderId),
      reportedDocument(source),
      source.aedTotalWithTax && el('pxs:CustomContent', {}, el('cbc:ID', {}, 'BTAE-20'), el('cbc:Value', {}, source.aedTotalWithTax)),
      el('pxs:SourceDocument', {}, el('cec:ExtensionContent', {}, SOURCE_SLOT))));
  const written = toXml(root);
  const slot = written.lastIndexOf(SOURCE_SLOT);
  const xml = `${written.slice(0, slot)}${source.xml}${written.slice(slot + SOURCE_SLOT.length)}`;
  return { xml, source, reportingParty };
}

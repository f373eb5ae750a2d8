/**
 * What the FTA checks of a TDD it receives, as far as is public: the OpenPeppol AE TDD Schematron
 * 1.0 (rule ids `ibr-tdd-*`, transcribed for the assertions a TDD built from PINT AE can break),
 * and three checks of the FTA's own that follow from the notes (`FTA-AE-*`, ids ours). The sandbox
 * FTA answers these with an MLS `RE`; a text that is no TDD at all is a syntax violation (`SV`).
 */
import { all, first, parseXml, textAt, XmlSyntaxError, type Step, type XmlElement } from '../../shared/xml-read';
import { NS } from './namespaces';
import { TDD_CUSTOMIZATION_ID, TDD_PROFILE_ID } from './tdd';

/** MLS status reason: syntax violation, or business rule violation (Peppol MLS 1.0). */
export interface TddIssue {
  readonly ruleId: string;
  readonly reason: 'SV' | 'BV';
  readonly message: string;
}

/** What the FTA reads of a TDD to file it. */
export interface TddFacts {
  /** TDT-010: `01` (C2) or `02` (C3). */
  readonly reporterRole?: string;
  /** TDT-007, `scheme:id`. */
  readonly reportingParty?: string;
  /** TDT-009, the reporting access point, `0242:id`. */
  readonly representative?: string;
  readonly documentId?: string;
  readonly documentUuid?: string;
  readonly documentTypeCode?: string;
  /** The seller's PartyTaxScheme CompanyID and scheme. */
  readonly sellerTaxId?: string;
}

/** A read TDD: its facts and what is wrong with it (empty: the FTA takes it). */
export interface TddReading {
  readonly facts: TddFacts;
  readonly issues: readonly TddIssue[];
}

const ISSUE_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(.\d{1,9})?(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)$/;
const PARTICIPANT_SCHEME = /^[0-9]{4}$/;
const ISO_4217 = /^[A-Z]{3}$/;

const joined = (el: XmlElement | undefined) => {
  const id = el?.text.trim();
  const scheme = el?.attrs.schemeID?.trim();
  return id ? (scheme ? `${scheme}:${id}` : id) : undefined;
};

function facts(root: XmlElement): TddFacts {
  const reported = first(root, [NS.pxs, 'ReportedTransaction'], [NS.pxs, 'ReportedDocument']);
  return {
    reporterRole: textAt(root, [NS.pxs, 'ReporterRole']),
    reportingParty: joined(first(root, [NS.pxs, 'ReportingParty'], [NS.cbc, 'EndpointID'])),
    representative: joined(first(root, [NS.pxs, 'ReportersRepresentative'], [NS.cac, 'PartyIdentification'], [NS.cbc, 'ID'])),
    documentId: textAt(reported, [NS.cbc, 'ID']),
    documentUuid: textAt(reported, [NS.cbc, 'UUID']),
    documentTypeCode: textAt(reported, [NS.pxs, 'DocumentTypeCode']),
    sellerTaxId: textAt(reported, [NS.cac, 'AccountingSupplierParty'], [NS.cac, 'Party'], [NS.cac, 'PartyTaxScheme'], [NS.cbc, 'CompanyID']),
  };
}

type Rule = readonly [ruleId: string, holds: boolean, message: string];

/** The Schematron's assertions on the header and parties (ibr-tdd-01..21). */
function headerRules(root: XmlElement): Rule[] {
  const code = (path: Step[], list: string[]) => list.includes(textAt(root, ...path) ?? '');
  const endpoint = (party: string) => first(root, [NS.pxs, party], [NS.cbc, 'EndpointID']);
  const reporting = endpoint('ReportingParty');
  const receiving = endpoint('ReceivingParty');
  const representatives = all(root, [NS.pxs, 'ReportersRepresentative'], [NS.cac, 'PartyIdentification']);
  return [
    ['ibr-tdd-01', textAt(root, [NS.cbc, 'CustomizationID']) === TDD_CUSTOMIZATION_ID,
      `The Specification identifier (tdt-001) MUST use the value '${TDD_CUSTOMIZATION_ID}'`],
    ['ibr-tdd-02', textAt(root, [NS.cbc, 'ProfileID']) === TDD_PROFILE_ID,
      `The Business process type (tdt-002) MUST use the value '${TDD_PROFILE_ID}'`],
    ['ibr-tdd-03', !first(root, [NS.cbc, 'ID']), 'Only XML elements defined in this specification are allowed to be used'],
    ['ibr-tdd-04', (textAt(root, [NS.cbc, 'IssueDate']) ?? '').length === 10,
      'The Tax Data Document issue date (tdt-004) MUST NOT contain timezone information'],
    ['ibr-tdd-05', ISSUE_TIME.test(textAt(root, [NS.cbc, 'IssueTime']) ?? ''),
      'The Tax Data Document issue time (tdt-005) MUST contain timezone information'],
    ['ibr-tdd-06', code([[NS.pxs, 'DocumentTypeCode']], ['S', 'R', 'W', 'F']),
      'The Tax Data Document type code (tdt-006) MUST be coded according to the code list'],
    ['ibr-tdd-07', code([[NS.pxs, 'DocumentScope']], ['D', 'IP', 'INP']),
      'The Report scope (tdt-011) MUST be coded according to the code list'],
    ['ibr-tdd-08', code([[NS.pxs, 'ReporterRole']], ['01', '02']), 'The Reporters role (tdt-010) MUST be coded according to the code list'],
    ['ibr-tdd-09', all(root, [NS.pxs, 'ReportedTransaction']).length === 1, 'Exactly one REPORTED TRANSACTION (tdg-001) MUST be present'],
    ['ibr-tdd-11', reporting !== undefined, 'Reporters Endpoint (tdt-007) MUST be present'],
    ['ibr-tdd-13', !reporting || PARTICIPANT_SCHEME.test(reporting.attrs.schemeID ?? ''),
      'Reporters Endpoint Scheme identifier (tdt-007-1) MUST be a Peppol Participant Identifier Scheme'],
    ['ibr-tdd-15', receiving !== undefined, 'Receivers Endpoint (tdt-008) MUST be present'],
    ['ibr-tdd-17', !receiving || receiving.attrs.schemeID === '0242',
      'Receivers Endpoint Scheme identifier (tdt-008-1) MUST refer to an SPID'],
    ['ibr-tdd-19', representatives.length === 1, 'Exactly one Reporters Representative ID (tdt-009) MUST be present'],
    ['ibr-tdd-21', representatives.every((p) => first(p, [NS.cbc, 'ID'])?.attrs.schemeID === '0242'),
      'Reporters Representative ID Scheme identifier (tdt-009-1) MUST refer to an SPID'],
  ];
}

/** The Schematron's assertions on the reported transaction (ibr-tdd-22..57). */
function transactionRules(root: XmlElement): Rule[] {
  const rt = first(root, [NS.pxs, 'ReportedTransaction']);
  const doc = first(rt, [NS.pxs, 'ReportedDocument']);
  const failed = textAt(root, [NS.pxs, 'DocumentTypeCode']) === 'F';
  const sourcePresent: Rule = ['ibr-tdd-23', first(rt, [NS.pxs, 'SourceDocument']) !== undefined, 'The SOURCE DOCUMENT (tdg-03) MUST be present'];
  if (!doc) return [['ibr-tdd-22', failed, 'The REPORTED DOCUMENT (tdg-02) MUST be present'], sourcePresent];
  const dcc = textAt(doc, [NS.cbc, 'DocumentCurrencyCode']);
  const tcc = textAt(doc, [NS.cbc, 'TaxCurrencyCode']);
  const totals = all(doc, [NS.cac, 'TaxTotal']);
  const inCurrency = (c: string | undefined) => totals.filter((t) => first(t, [NS.cbc, 'TaxAmount'])?.attrs.currencyID === c).length;
  const monetary = all(doc, [NS.pxs, 'MonetaryTotal']);
  const sellerSchemes = all(doc, [NS.cac, 'AccountingSupplierParty'], [NS.cac, 'Party'], [NS.cac, 'PartyTaxScheme']);
  const buyer = first(doc, [NS.cac, 'AccountingCustomerParty'], [NS.cac, 'Party']);
  const content = first(rt, [NS.pxs, 'SourceDocument'], [NS.cec, 'ExtensionContent']);
  const has = (...path: Step[]) => first(doc, ...path) !== undefined;
  return [
    sourcePresent,
    ['ibr-tdd-24', has([NS.cbc, 'CustomizationID']), 'The Specification identifier (ibt-024) MUST be present'],
    ['ibr-tdd-25', has([NS.cbc, 'ProfileID']), 'The Business process type (ibt-023) MUST be present'],
    ['ibr-tdd-26', has([NS.cbc, 'ID']), 'The Invoice number (ibt-001) MUST be present'],
    ['ibr-tdd-27', has([NS.cbc, 'UUID']), 'The UUID (btae-07) MUST be present'],
    ['ibr-tdd-28', has([NS.cbc, 'IssueDate']), 'The Invoice issue date (ibt-002) MUST be present'],
    ['ibr-tdd-29', has([NS.pxs, 'DocumentTypeCode']), 'The Invoice type code (ibt-003) element MUST be present'],
    ['ibr-tdd-30', dcc !== undefined, 'The Document currency code (ibt-005) MUST be present'],
    ['ibr-tdd-30-1', dcc === undefined || ISO_4217.test(dcc),
      'The Document currency code (idt-005) MUST be coded according to the code list'],
    ['ibr-tdd-31', tcc === undefined || tcc !== dcc,
      'The Accounting currency code (ibt-006) MUST be different from Document currency code (ibt-005)'],
    ['ibr-tdd-32', has([NS.cac, 'AccountingSupplierParty']), 'The SELLER (ibg-04) MUST be present'],
    ['ibr-tdd-33', has([NS.cac, 'AccountingCustomerParty']), 'The BUYER (ibg-07) MUST be present'],
    ['ibr-tdd-34', totals.length === (tcc ? 2 : 1),
      'An Invoice total TAX amount (ibt-110, ibt-111) MUST be provided for each currency used'],
    ['ibr-tdd-35', inCurrency(dcc) === 1,
      'Exactly 1 Invoice total TAX amount (ibt-110) MUST be provided for Document currency code (ibt-005)'],
    ['ibr-tdd-36', !tcc || inCurrency(tcc) === 1,
      'Exactly 1 Invoice total TAX amount (ibt-111) MUST be provided for Accounting currency code (ibt-006)'],
    ['ibr-tdd-37', monetary.length === 1, 'Exactly 1 MonetaryTotal element must be present'],
    ['ibr-tdd-40', has([NS.cac, 'AccountingSupplierParty'], [NS.cac, 'Party']), 'The seller Party element MUST be present'],
    ['ibr-tdd-42', sellerSchemes.length === 1, 'Exactly 1 seller PartyTaxScheme element MUST be present'],
    ['ibr-tdd-44', sellerSchemes.every((s) => textAt(s, [NS.cbc, 'CompanyID']) !== undefined),
      'The Seller VAT identifier (ibt-031) or tax registration identifier (ibt-032) MUST be present'],
    ['ibr-tdd-45', sellerSchemes.every((s) => textAt(s, [NS.cac, 'TaxScheme'], [NS.cbc, 'ID']) !== undefined),
      'The Seller tax scheme code MUST be present'],
    ['ibr-tdd-47', buyer !== undefined, 'The buyer Party element MUST be present'],
    ['ibr-tdd-50', all(buyer, [NS.cac, 'PartyTaxScheme']).every((s) => textAt(s, [NS.cbc, 'CompanyID']) !== undefined),
      'The Buyer VAT identifier (ibt-048) MUST be present'],
    ['ibr-tdd-52', monetary.every((m) => first(m, [NS.cbc, 'TaxExclusiveAmount']) !== undefined),
      'The Invoice total amount without VAT (ibt-109) element must be present'],
    ['ibr-tdd-53', monetary.every((m) => first(m, [NS.cbc, 'TaxExclusiveAmount'])?.attrs.currencyID === dcc),
      'The Invoice total amount without VAT (ibt-109) currency must match the Document currency code (ibt-005)'],
    ['ibr-tdd-54', monetary.every((m) => !first(m, [NS.cbc, 'TaxInclusiveAmount'])),
      'Only XML elements defined in this specification are allowed to be used'],
    ['ibr-tdd-55', all(rt, [NS.pxs, 'CustomContent']).every((c) => first(c, [NS.cbc, 'Value']) !== undefined),
      'The CustomContent MUST use the simple cbc:Value element'],
    ['ibr-tdd-57', first(content, [NS.invoice, 'Invoice']) !== undefined || first(content, [NS.creditNote, 'CreditNote']) !== undefined,
      'The Invoice XML (tdt-012) MUST contain either a UBL 2.1 Invoice or a UBL 2.1 Credit Note'],
  ];
}

/**
 * The FTA's own checks (ids ours): VAT charged needs the seller's TRN; the reported projection must be
 * the source's; the reporter must be a party of the source in its role.
 */
function ftaRules(root: XmlElement): Rule[] {
  const rt = first(root, [NS.pxs, 'ReportedTransaction']);
  const doc = first(rt, [NS.pxs, 'ReportedDocument']);
  const content = first(rt, [NS.pxs, 'SourceDocument'], [NS.cec, 'ExtensionContent']);
  const source = first(content, [NS.invoice, 'Invoice']) ?? first(content, [NS.creditNote, 'CreditNote']);
  if (!doc || !source) return [];
  const charged = all(doc, [NS.cac, 'TaxTotal'], [NS.cbc, 'TaxAmount']).some((t) => Number(t.text.trim()) !== 0);
  const sellerTax = first(doc, [NS.cac, 'AccountingSupplierParty'], [NS.cac, 'Party'], [NS.cac, 'PartyTaxScheme']);
  const sellerScheme = textAt(sellerTax, [NS.cac, 'TaxScheme'], [NS.cbc, 'ID']);
  const selfBilled = (textAt(source, [NS.cbc, 'CustomizationID']) ?? '').includes('selfbilling');
  const endpointOf = (role: string) => joined(first(source, [NS.cac, role], [NS.cac, 'Party'], [NS.cbc, 'EndpointID']));
  const [seller, buyer] = ['AccountingSupplierParty', 'AccountingCustomerParty'];
  const [sender, receiver] = selfBilled ? [buyer, seller] : [seller, buyer];
  const role = textAt(root, [NS.pxs, 'ReporterRole']);
  const reporter = joined(first(root, [NS.pxs, 'ReportingParty'], [NS.cbc, 'EndpointID']));
  return [
    ['FTA-AE-01', !charged || sellerScheme === 'VAT', 'A document that charges VAT MUST state the seller\'s TRN (IBT-031, tax scheme VAT)'],
    ['FTA-AE-02', (['ID', 'UUID'] as const).every((name) => textAt(doc, [NS.cbc, name]) === textAt(source, [NS.cbc, name])),
      'The reported document\'s number and UUID MUST be those of the source document'],
    ['FTA-AE-03', role !== '01' && role !== '02' ? true : reporter === endpointOf(role === '01' ? sender : receiver),
      'The reporting party (tdt-007) MUST be the source document\'s sender for role 01 and its receiver for role 02'],
  ];
}

/** Reads and checks a TDD as the FTA would. */
export function readTdd(xml: string): TddReading {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (error) {
    if (!(error instanceof XmlSyntaxError)) throw error;
    return { facts: {}, issues: [{ ruleId: 'XML', reason: 'SV', message: `The message is not well-formed XML: ${error.message}` }] };
  }
  if (root.ns !== NS.pxs || root.name !== 'TaxData') {
    const message = `The root element {${root.ns}}${root.name} is not a pxs:TaxData`;
    return { facts: {}, issues: [{ ruleId: 'XSD', reason: 'SV', message }] };
  }
  const issues = [...headerRules(root), ...transactionRules(root), ...ftaRules(root)]
    .filter(([, holds]) => !holds)
    .map(([ruleId, , message]): TddIssue => ({ ruleId, reason: 'BV', message: `[${ruleId}] ${message}` }));
  return { facts: facts(root), issues };
}

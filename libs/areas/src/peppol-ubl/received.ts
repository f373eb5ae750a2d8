/**
 * The check of a business document received over Peppol for a receiver hosted here (#46), before it
 * is recorded: the MLS reasons it can lead to (MLS 1.0 code list "Status Reason"): SV when the payload
 * is not the document its envelope names (not XML, another root, another CustomizationID), BV when it
 * breaks a rule of its specification. The rules run in-process are EN 16931's core cardinalities every
 * Peppol billing specification (BIS 3.0, PINT) keeps, with their official ids; with
 * PEPPOL_INBOUND_OFFICIAL_RULES=true (and CONFORMANCE_DIR), the official Schematron of its specification
 * runs too (the ones shared/conformance holds: BIS 3.0, PINT SG, PINT AE). Pure but for that setting.
 */
import { type RuleSetName, ruleSets } from '../conformance/rule-sets';
import { declareOfficialCheck } from '../conformance/runtime';
import { blocking, runStylesheets } from '../conformance/schematron';
import { first, rootOrProblem, textAt, type XmlElement } from '../shared/xml-read';
import type { MlsIssue } from './mls';
import { parseDocumentTypeId } from './exchange';

const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';

/** What the receiver's copy needs of an accepted document. */
export interface ReceivedDocument {
  /** BT-1. */
  readonly documentNumber: string;
  /** BT-3: the invoice or credit note type code. */
  readonly typeCode: string;
  readonly root: 'Invoice' | 'CreditNote';
  /** BT-2. */
  readonly issueDate: string;
  /** BT-5. */
  readonly currency: string;
  /** Who sent it, as its receiver's documents list shows it (#50 `counterparty`). */
  readonly sender: ReceivedSender;
}

/**
 * A received document's sender: BT-27 Seller name, and its identifier as a person knows it: BT-31 Seller VAT
 * identifier (the first PartyTaxScheme's), else BT-34 its electronic address (its Peppol id's value); null where absent.
 */
export interface ReceivedSender {
  readonly name: string | null;
  readonly id: string | null;
}

export type ReceivedCheck =
  | { readonly ok: true; readonly document: ReceivedDocument }
  | { readonly ok: false; readonly reason: 'SV' | 'BV'; readonly code: string; readonly message: string; readonly issues: readonly MlsIssue[] };

/** Official Schematron by CustomizationID (shared/conformance's rule sets). */
const OFFICIAL_RULE_SETS: Readonly<Record<string, RuleSetName>> = {
  'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0': 'peppol-bis-3',
  'urn:peppol:pint:billing-1@sg-1': 'pint-sg',
  'urn:peppol:pint:billing-1@ae-1': 'pint-ae:billing:2026.5',
  'urn:peppol:pint:selfbilling-1@ae-1': 'pint-ae:selfbilling:2026.5',
};

const OFFICIAL_RULES = declareOfficialCheck({
  name: 'Peppol received documents Schematron (PEPPOL_INBOUND_OFFICIAL_RULES)',
  folder: '',
  files: [...new Set(Object.values(OFFICIAL_RULE_SETS).flatMap((name) => [...ruleSets[name]]))],
  onlyWhen: { variable: 'PEPPOL_INBOUND_OFFICIAL_RULES', value: 'true' },
});

type Rule = readonly [id: string, holds: (root: XmlElement) => boolean, message: string];

const party = (root: XmlElement, role: 'AccountingSupplierParty' | 'AccountingCustomerParty') => first(root, [CAC, role], [CAC, 'Party']);
const has = (el: XmlElement | undefined, ...path: ReadonlyArray<readonly [string, string]>) => textAt(el, ...path) !== undefined;

/** EN 16931 (CEN-EN16931-UBL) and Peppol rules every billing specification keeps; the message is the official one. */
const CORE_RULES: readonly Rule[] = [
  ['BR-02', (r) => has(r, [CBC, 'ID']), 'An Invoice shall have an Invoice number (BT-1).'],
  ['BR-03', (r) => has(r, [CBC, 'IssueDate']), 'An Invoice shall have an Invoice issue date (BT-2).'],
  ['BR-04', (r) => has(r, [CBC, `${r.name}TypeCode`]), 'An Invoice shall have an Invoice type code (BT-3).'],
  ['BR-05', (r) => has(r, [CBC, 'DocumentCurrencyCode']), 'An Invoice shall have an Invoice currency code (BT-5).'],
  ['BR-06', (r) => has(party(r, 'AccountingSupplierParty'), [CAC, 'PartyLegalEntity'], [CBC, 'RegistrationName']), 'An Invoice shall contain the Seller name (BT-27).'],
  ['BR-07', (r) => has(party(r, 'AccountingCustomerParty'), [CAC, 'PartyLegalEntity'], [CBC, 'RegistrationName']), 'An Invoice shall contain the Buyer name (BT-44).'],
  ['BR-08', (r) => first(party(r, 'AccountingSupplierParty'), [CAC, 'PostalAddress']) !== undefined, 'An Invoice shall contain the Seller postal address (BG-5).'],
  ['BR-10', (r) => first(party(r, 'AccountingCustomerParty'), [CAC, 'PostalAddress']) !== undefined, 'An Invoice shall contain the Buyer postal address (BG-8).'],
  ['PEPPOL-EN16931-R001', (r) => has(r, [CBC, 'ProfileID']), 'Business process MUST be provided.'],
];

function senderOf(root: XmlElement): ReceivedSender {
  const seller = party(root, 'AccountingSupplierParty');
  const text = (...path: ReadonlyArray<readonly [string, string]>) => textAt(seller, ...path)?.trim() || null;
  return { name: text([CAC, 'PartyLegalEntity'], [CBC, 'RegistrationName']), id: text([CAC, 'PartyTaxScheme'], [CBC, 'CompanyID']) ?? text([CBC, 'EndpointID']) };
}

/**
 * The sender of a UBL document delivered to a receiver hosted here (the delivery worker's local delivery,
 * which does not run checkReceivedDocument: the document passed its sender's area's rules); both null
 * when it is not XML.
 */
export function receivedSenderOf(xml: string): ReceivedSender {
  const parsed = rootOrProblem(xml);
  return 'problem' in parsed ? { name: null, id: null } : senderOf(parsed.root);
}

const syntax = (code: string, message: string): ReceivedCheck => ({ ok: false, reason: 'SV', code, message, issues: [{ location: 'NA', description: message, reason: 'SV' }] });

/** Checks a received payload against the document type its envelope names. */
export function checkReceivedDocument(documentTypeId: string, payload: string): ReceivedCheck {
  const type = parseDocumentTypeId(documentTypeId);
  if (!type) return syntax('PEPPOL.DOCUMENT_TYPE_INVALID', `${documentTypeId} is not a Peppol document type identifier.`);
  const parsed = rootOrProblem(payload);
  if ('problem' in parsed) return syntax('PEPPOL.PAYLOAD_NOT_XML', `The payload is ${parsed.problem}.`);
  const { root } = parsed;
  if (root.ns !== type.namespace || root.name !== type.root || (root.name !== 'Invoice' && root.name !== 'CreditNote')) {
    return syntax('PEPPOL.PAYLOAD_MISMATCH', `The payload is a {${root.ns}}${root.name}, not the ${type.root} its document type names.`);
  }
  const customizationId = textAt(root, [CBC, 'CustomizationID']);
  if (customizationId !== type.customizationId) {
    return syntax('PEPPOL.PAYLOAD_MISMATCH', `The payload's CustomizationID ${customizationId ?? '(none)'} is not ${type.customizationId}, which its document type names.`);
  }
  const broken = [
    ...CORE_RULES.filter(([, holds]) => !holds(root)).map(([id, , message]) => ({ id, message })),
    ...officialFailures(customizationId, payload),
  ];
  if (broken.length > 0) {
    return {
      ok: false,
      reason: 'BV',
      code: broken[0].id,
      message: `The document breaks ${broken.length} rule(s) of its specification: ${broken.map((b) => b.id).join(', ')}.`,
      issues: broken.map((b) => ({ location: 'NA', description: `[${b.id}] ${b.message}`, reason: 'BV' as const })),
    };
  }
  const text = (name: string) => textAt(root, [CBC, name]) as string;
  return { ok: true, document: { documentNumber: text('ID'), typeCode: text(`${root.name}TypeCode`), root: root.name, issueDate: text('IssueDate'), currency: text('DocumentCurrencyCode'), sender: senderOf(root) } };
}

function officialFailures(customizationId: string, payload: string): Array<{ id: string; message: string }> {
  const files = OFFICIAL_RULES.files();
  const ruleSet = OFFICIAL_RULE_SETS[customizationId];
  if (!files || !ruleSet) return [];
  const stylesheets = ruleSets[ruleSet].map((name) => files.find((f) => f.fileName === name)?.contents ?? '');
  return blocking(runStylesheets(stylesheets, payload)).map((f) => ({ id: f.id, message: f.text.replace(/\s+/g, ' ').trim() }));
}

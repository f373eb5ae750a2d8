/**
 * Peppol Message Level Status 1.0 (docs.peppol.eu/edelivery/specs/mls/v1.0.0; national-systems-detail.md
 * §6 "MLS"; OpenPeppol MLS Schematron, rule ids `SCH-MLS-*`): the UBL ApplicationResponse a receiving
 * access point (C3) answers a received message with (#46), and the FTA each TDD (UAE). AP accepted
 * (delivered, confirmed), AB acknowledged (delivered, not confirmed), RE rejected with a description
 * and at least one issue whose reason is BV (business rule), FD (failure of delivery) or SV (syntax);
 * BW (warning) only on a positive answer. Pure; shared by the Peppol exchange and UAE's reporting.
 */
import { el, toXml } from '../shared/xml';
import { all, first, parseXml, textAt, XmlSyntaxError, type XmlElement } from '../shared/xml-read';

export const MLS_CUSTOMIZATION_ID = 'urn:peppol:edec:mls:1.0';
export const MLS_PROFILE_ID = 'urn:peppol:edec:mls';
/** Its Peppol document type and process (Peppol code lists; MLS 1.0 §9), with their identifier schemes, as SBDH and SMP name them. */
export const MLS_DOCUMENT_TYPE_ID = `busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2::ApplicationResponse##${MLS_CUSTOMIZATION_ID}::2.1`;
export const MLS_PROCESS_ID = `cenbii-procid-ubl::${MLS_PROFILE_ID}`;

const NS = {
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  applicationResponse: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
} as const;

/** `0242:000123` → scheme and value (an EndpointID's `schemeID` and text). */
function splitId(value: string): { readonly scheme?: string; readonly id: string } {
  const colon = value.indexOf(':');
  return colon < 0 ? { id: value } : { scheme: value.slice(0, colon), id: value.slice(colon + 1) };
}

export type MlsResponseCode = 'AP' | 'AB' | 'RE';
export type MlsReasonCode = 'BV' | 'BW' | 'FD' | 'SV';

/** One issue (LineResponse): where (`NA` when no line applies), what, and why. */
export interface MlsIssue {
  readonly location: string;
  readonly description: string;
  readonly reason: MlsReasonCode;
}

/** A Message Level Status. */
export interface Mls {
  readonly id: string;
  /** When it was issued (IssueDate and IssueTime with zone). */
  readonly issuedAt: string;
  /** Service-provider ids `0242:…` of the issuer (the FTA) and of the access point it answers. */
  readonly sender: string;
  readonly receiver: string;
  readonly responseCode: MlsResponseCode;
  /** Mandatory on RE (SCH-MLS-19). */
  readonly description?: string;
  /** The SBDH InstanceIdentifier of the message answered (DocumentReference/ID). */
  readonly messageId: string;
  readonly issues: readonly MlsIssue[];
}

const RESPONSE_CODES: readonly string[] = ['AP', 'AB', 'RE'];
const REASON_CODES: readonly string[] = ['BV', 'BW', 'FD', 'SV'];
const FAILURES: readonly string[] = ['BV', 'FD', 'SV'];

/** The SCH-MLS assertions an Mls breaks (empty: a valid MLS). */
export function mlsViolations(m: Mls): string[] {
  const failing = m.issues.some((i) => FAILURES.includes(i.reason));
  const checks: Array<[string, boolean]> = [
    ['SCH-MLS-03', m.id.trim() !== ''],
    ['SCH-MLS-08', splitId(m.sender).id.trim() !== ''],
    ['SCH-MLS-10', /^[0-9]{4}$/.test(splitId(m.sender).scheme ?? '')],
    ['SCH-MLS-12', splitId(m.receiver).id.trim() !== ''],
    ['SCH-MLS-14', /^[0-9]{4}$/.test(splitId(m.receiver).scheme ?? '')],
    ['SCH-MLS-18', RESPONSE_CODES.includes(m.responseCode)],
    ['SCH-MLS-19', m.responseCode !== 'RE' || (m.description ?? '').trim() !== ''],
    ['SCH-MLS-21', m.messageId.trim() !== ''],
    ['SCH-MLS-22', m.responseCode !== 'RE' || m.issues.length > 0],
    ['SCH-MLS-23', m.responseCode !== 'RE' || failing],
    ['SCH-MLS-24', m.responseCode === 'RE' || !failing],
    ['SCH-MLS-25', m.issues.every((i) => i.location.trim() !== '')],
    ['SCH-MLS-27', m.issues.every((i) => i.description.trim() !== '')],
    ['SCH-MLS-29', m.issues.every((i) => REASON_CODES.includes(i.reason))],
  ];
  return checks.filter(([, holds]) => !holds).map(([id]) => id);
}

/** The MLS as XML. @throws Error listing the SCH-MLS rules it would break */
export function buildMls(m: Mls): string {
  const broken = mlsViolations(m);
  if (broken.length) throw new Error(`Not a valid Peppol MLS: ${broken.join(', ')}`);
  const sender = splitId(m.sender);
  const receiver = splitId(m.receiver);
  const iso = new Date(m.issuedAt).toISOString();
  return toXml(el('ApplicationResponse', { xmlns: NS.applicationResponse, 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc },
    el('cbc:CustomizationID', {}, MLS_CUSTOMIZATION_ID),
    el('cbc:ProfileID', {}, MLS_PROFILE_ID),
    el('cbc:ID', {}, m.id),
    el('cbc:IssueDate', {}, iso.slice(0, 10)),
    el('cbc:IssueTime', {}, `${iso.slice(11, 19)}Z`),
    el('cac:SenderParty', {}, el('cbc:EndpointID', { schemeID: sender.scheme }, sender.id)),
    el('cac:ReceiverParty', {}, el('cbc:EndpointID', { schemeID: receiver.scheme }, receiver.id)),
    el('cac:DocumentResponse', {},
      el('cac:Response', {}, el('cbc:ResponseCode', {}, m.responseCode), el('cbc:Description', {}, m.description)),
      el('cac:DocumentReference', {}, el('cbc:ID', {}, m.messageId)),
      ...m.issues.map((i) => el('cac:LineResponse', {},
        el('cac:LineReference', {}, el('cbc:LineID', {}, i.location)),
        el('cac:Response', {}, el('cbc:Description', {}, i.description), el('cac:Status', {}, el('cbc:StatusReasonCode', {}, i.reason))))))));
}

/** Why a text is not an MLS this connector can act on. */
export class MlsFormatError extends Error {
  constructor(message: string, readonly violations: readonly string[] = []) {
    super(message);
    this.name = 'MlsFormatError';
  }
}

const joined = (e: XmlElement | undefined) => {
  const id = e?.text.trim() ?? '';
  const scheme = e?.attrs.schemeID?.trim();
  return scheme ? `${scheme}:${id}` : id;
};

/** Reads an MLS. @throws MlsFormatError when it is not a Peppol MLS 1.0 or breaks its rules */
export function parseMls(xml: string): Mls {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (error) {
    if (error instanceof XmlSyntaxError) throw new MlsFormatError(`The MLS is not well-formed XML: ${error.message}`);
    throw error;
  }
  if (root.ns !== NS.applicationResponse || root.name !== 'ApplicationResponse') {
    throw new MlsFormatError(`{${root.ns}}${root.name} is not an ApplicationResponse`);
  }
  if (textAt(root, [NS.cbc, 'CustomizationID']) !== MLS_CUSTOMIZATION_ID) throw new MlsFormatError('Not an MLS 1.0 (CustomizationID)', ['SCH-MLS-01']);
  if (textAt(root, [NS.cbc, 'ProfileID']) !== MLS_PROFILE_ID) throw new MlsFormatError('Not an MLS (ProfileID)', ['SCH-MLS-02']);
  const responses = all(root, [NS.cac, 'DocumentResponse']);
  if (responses.length !== 1) throw new MlsFormatError('An MLS holds exactly one DocumentResponse', ['SCH-MLS-15']);
  const response = responses[0];
  const time = textAt(root, [NS.cbc, 'IssueTime']) ?? '';
  if (!/([+-]\d{2}:\d{2}|Z)$/.test(time)) throw new MlsFormatError('The MLS IssueTime has no zone', ['SCH-MLS-06']);
  const issuedAt = new Date(`${textAt(root, [NS.cbc, 'IssueDate']) ?? ''}T${time}`);
  const m: Mls = {
    id: textAt(root, [NS.cbc, 'ID']) ?? '',
    issuedAt: Number.isNaN(issuedAt.getTime()) ? '' : issuedAt.toISOString(),
    sender: joined(first(root, [NS.cac, 'SenderParty'], [NS.cbc, 'EndpointID'])),
    receiver: joined(first(root, [NS.cac, 'ReceiverParty'], [NS.cbc, 'EndpointID'])),
    responseCode: (textAt(response, [NS.cac, 'Response'], [NS.cbc, 'ResponseCode']) ?? '') as MlsResponseCode,
    description: textAt(response, [NS.cac, 'Response'], [NS.cbc, 'Description']),
    messageId: textAt(response, [NS.cac, 'DocumentReference'], [NS.cbc, 'ID']) ?? '',
    issues: all(response, [NS.cac, 'LineResponse']).map((line) => ({
      location: textAt(line, [NS.cac, 'LineReference'], [NS.cbc, 'LineID']) ?? '',
      description: textAt(line, [NS.cac, 'Response'], [NS.cbc, 'Description']) ?? '',
      reason: (textAt(line, [NS.cac, 'Response'], [NS.cac, 'Status'], [NS.cbc, 'StatusReasonCode']) ?? '') as MlsReasonCode,
    })),
  };
  if (!m.issuedAt) throw new MlsFormatError('The MLS IssueDate/IssueTime is not a date and time', ['SCH-MLS-04']);
  const broken = mlsViolations(m);
  if (broken.length) throw new MlsFormatError(`The MLS breaks ${broken.join(', ')}`, broken);
  return m;
}

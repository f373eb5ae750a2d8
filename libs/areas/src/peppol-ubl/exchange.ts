/**
 * What a Peppol AS4 transmission carries besides the document (#46): its SBDH identifiers (Peppol
 * Business Message Envelope 2.0; Peppol Policy for use of Identifiers 4.x), read from the UBL
 * document itself, and the Message Level Status a receiving access point answers with (MLS 1.0).
 * Pure: the AS4 engine (engines/as4) builds the envelope from these; docs/peppol-as4.md.
 */
import { X509Certificate } from 'node:crypto';
import { first, parseXml, textAt, type XmlElement } from '../shared/xml-read';
import { buildMls, type MlsIssue, MLS_DOCUMENT_TYPE_ID, MLS_PROCESS_ID } from './mls';

const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';

/** Participant identifiers carry this scheme in the SBDH and the SMP (Policy for use of Identifiers 4.x, POLICY 1). */
export const PARTICIPANT_SCHEME = 'iso6523-actorid-upis';
/** OpenPeppol Service Provider Identification Scheme: an access point's id is `0242:<seat number>`. */
export const SERVICE_PROVIDER_ICD = '0242';

/** The SBDH identifiers of a UBL business document. */
export interface Envelope {
  /** `<scheme>::<root namespace>::<root>##<CustomizationID>::2.1`. */
  readonly documentTypeId: string;
  /** `cenbii-procid-ubl::<ProfileID>`. */
  readonly processId: string;
  /** COUNTRY_C1: the sender's (C1) country, the seller's postal address country (BT-40). */
  readonly countryC1: string | undefined;
}

/**
 * The envelope of a UBL document: its document type (PINT specifications under the
 * `peppol-doctype-wildcard` scheme, BIS and the rest under `busdox-docid-qns`: Policy 4.x §3.4) and
 * process, from its root, CustomizationID (BT-24) and ProfileID (BT-23). @throws Error when the text
 * is no UBL document with both.
 */
export function envelopeOf(xml: string): Envelope {
  const root = parseXml(xml);
  const customizationId = textAt(root, [CBC, 'CustomizationID']);
  const profileId = textAt(root, [CBC, 'ProfileID']);
  if (!customizationId || !profileId) throw new Error(`The ${root.name} has no CustomizationID or ProfileID: it cannot travel over Peppol.`);
  const scheme = customizationId.startsWith('urn:peppol:pint:') ? 'peppol-doctype-wildcard' : 'busdox-docid-qns';
  return {
    documentTypeId: `${scheme}::${root.ns}::${root.name}##${customizationId}::2.1`,
    processId: `cenbii-procid-ubl::${profileId}`,
    countryC1: countryOf(root),
  };
}

function countryOf(root: XmlElement): string | undefined {
  const party = first(root, [CAC, 'AccountingSupplierParty'], [CAC, 'Party']);
  return textAt(party, [CAC, 'PostalAddress'], [CAC, 'Country'], [CBC, 'IdentificationCode']);
}

/** The parts of a document type id: its scheme, root namespace, root, CustomizationID; undefined when it is not one. */
export function parseDocumentTypeId(id: string): { readonly scheme: string; readonly namespace: string; readonly root: string; readonly customizationId: string } | undefined {
  const match = /^([^:]+)::(.+)::([A-Za-z]+)##(.+)::[0-9.]+$/.exec(id);
  return match ? { scheme: match[1], namespace: match[2], root: match[3], customizationId: match[4] } : undefined;
}

export const isMlsDocumentType = (documentTypeId: string): boolean => documentTypeId === MLS_DOCUMENT_TYPE_ID;

/**
 * The service provider id (SPIS: `0242:<seat number>`) of an access point, from its Peppol AP
 * certificate, whose subject CN is its seat id (`POP000123`); undefined when the CN is no seat id.
 */
export function serviceProviderIdOf(certificatePem: string): string | undefined {
  const seat = seatIdOf(certificatePem);
  return seat ? `${SERVICE_PROVIDER_ICD}:${seat.slice(3)}` : undefined;
}

/** An access point's seat id, its AP certificate's subject CN (`PBE000123`: P, country, six digits); undefined when the CN is not one. */
export function seatIdOf(certificatePem: string): string | undefined {
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(new X509Certificate(certificatePem).subject)?.[1]?.trim();
  return cn && /^P[A-Z]{2}\d{6}$/.test(cn) ? cn : undefined;
}

/** `0242:000123` with its scheme, as SBDH and SMP name it. */
export const withParticipantScheme = (id: string): string => (id.includes('::') ? id : `${PARTICIPANT_SCHEME}::${id}`);
const withoutScheme = (id: string): string => (id.includes('::') ? id.slice(id.indexOf('::') + 2) : id);

/** How a received message came out: accepted (AP), or rejected with the issues that say why (RE). */
export type ReceivedVerdict = { readonly accepted: true } | { readonly accepted: false; readonly description: string; readonly issues: readonly MlsIssue[] };

/** An MLS as an AS4 transmission: the document and its envelope. */
export interface MlsTransmission {
  readonly senderParticipantId: string;
  readonly receiverParticipantId: string;
  readonly documentTypeId: string;
  readonly processId: string;
  readonly payload: string;
}

/**
 * The MLS a receiving access point (C3: us) sends the sending one (C2) for a message it received (MLS
 * 1.0 §3, §8): from our service provider id to C2's (the SBDH's MLS_TO when it named one, else the id
 * of the certificate C2 signed with), answering the message's SBDH InstanceIdentifier; AP when it was
 * accepted (delivered to a receiver hosted here, which confirms), RE with its issues otherwise.
 */
export function answerMls(input: {
  readonly mlsId: string;
  readonly issuedAt: string;
  readonly ourServiceProviderId: string;
  readonly theirServiceProviderId: string;
  readonly instanceIdentifier: string;
  readonly verdict: ReceivedVerdict;
}): MlsTransmission {
  const { verdict } = input;
  const payload = buildMls({
    id: input.mlsId,
    issuedAt: input.issuedAt,
    sender: withoutScheme(input.ourServiceProviderId),
    receiver: withoutScheme(input.theirServiceProviderId),
    responseCode: verdict.accepted ? 'AP' : 'RE',
    description: verdict.accepted ? undefined : verdict.description,
    messageId: input.instanceIdentifier,
    issues: verdict.accepted ? [] : verdict.issues,
  });
  return {
    senderParticipantId: withParticipantScheme(input.ourServiceProviderId),
    receiverParticipantId: withParticipantScheme(input.theirServiceProviderId),
    documentTypeId: MLS_DOCUMENT_TYPE_ID,
    processId: MLS_PROCESS_ID,
    payload,
  };
}

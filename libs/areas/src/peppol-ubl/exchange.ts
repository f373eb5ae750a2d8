/**
 * What a Peppol AS4 transmission carries besides the document (#46): its identifiers (Peppol Policy for
 * use of Identifiers 4.x; a document's own are read by peppol-reporting/identifiers.ts
 * `peppolDocumentIds`, the one reader the delivery worker uses), the access points' ids, and the Message
 * Level Status a receiving access point answers with (MLS 1.0). Pure; docs/peppol-as4.md.
 */
import { X509Certificate } from 'node:crypto';
import { buildMls, type MlsIssue, MLS_DOCUMENT_TYPE_ID, MLS_PROCESS_ID } from './mls';
import { SERVICE_PROVIDER_ICD } from '../peppol-participants/document-types';

/** Participant identifiers carry this scheme in the SBDH and the SMP (Policy for use of Identifiers 4.x, POLICY 1). */
export const PARTICIPANT_SCHEME = 'iso6523-actorid-upis';
export { SERVICE_PROVIDER_ICD };

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

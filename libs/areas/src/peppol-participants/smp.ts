/**
 * A read-only Peppol SMP 1.x (OASIS BDXR SMP 1.0 / PEPPOL "Service Metadata Publishing" 1.x):
 * ServiceGroup and SignedServiceMetadata XML for the participants hosted here; the latter signed with
 * the SMP certificate (smp-signature.ts) when one is configured.
 */
import { el, escapeXml, toXml } from '../shared/xml';
import { ReceivableDocumentType, fullDocumentTypeId } from './document-types';
import { PARTICIPANT_ID_SCHEME } from './participant-schemes';
import { type SmpSigningKey, signServiceMetadata } from './smp-signature';

export const SMP_NAMESPACE = 'http://busdox.org/serviceMetadata/publishing/1.0/';
const IDS_NAMESPACE = 'http://busdox.org/transport/identifiers/1.0/';
const WSA_NAMESPACE = 'http://www.w3.org/2005/08/addressing';
/**
 * The Peppol AS4 profile's transport profile id (Peppol AS4 specification 2.0; Peppol code list "Transport
 * profiles"): what the SMP publishes, and how a message the engine sends travels when it names none.
 */
export const AS4_TRANSPORT_PROFILE = 'peppol-transport-as4-v2_0';

/** Where and how the access point receives. */
export interface SmpEndpoint {
  /** The AS4 endpoint URL. */
  readonly endpointUri: string;
  /** Base64 DER of the AP certificate (PEPPOL_AP_KEYSTORE); a placeholder in sandbox mode without one. */
  readonly certificate: string;
  readonly serviceDescription: string;
  readonly technicalContactUrl: string;
}

/** SMP 1.x carries the scheme in the `scheme` attribute and `<icd>:<value>` as the element's text. */
function withoutScheme(participantId: string): string {
  const prefix = `${PARTICIPANT_ID_SCHEME}::`;
  return participantId.startsWith(prefix) ? participantId.slice(prefix.length) : participantId;
}

/**
 * `GET /smp/{participant-id}`: one reference per receivable document type. Written by hand:
 * references are attribute-only elements, which the shared builder drops as empty.
 */
export function renderServiceGroup(participantId: string, baseUrl: string, documentTypes: readonly ReceivableDocumentType[]): string {
  const pid = encodeURIComponent(participantId);
  const references = documentTypes.map((t) =>
    `    <smp:ServiceMetadataReference href="${escapeXml(`${baseUrl}/smp/${pid}/services/${encodeURIComponent(fullDocumentTypeId(t))}`)}"/>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<smp:ServiceGroup xmlns:smp="${SMP_NAMESPACE}" xmlns:id="${IDS_NAMESPACE}" xmlns:wsa="${WSA_NAMESPACE}">`,
    `  <id:ParticipantIdentifier scheme="${PARTICIPANT_ID_SCHEME}">${escapeXml(withoutScheme(participantId))}</id:ParticipantIdentifier>`,
    '  <smp:ServiceMetadataReferenceCollection>',
    ...references,
    '  </smp:ServiceMetadataReferenceCollection>',
    '</smp:ServiceGroup>',
    '',
  ].join('\n');
}

/**
 * `GET /smp/{participant-id}/services/{document-type-id}`, signed with `signingKey`; unsigned without one
 * (sandbox mode without PEPPOL_SMP_KEYSTORE: no sender of the Peppol network reads it).
 */
export function renderSignedServiceMetadata(participantId: string, documentType: ReceivableDocumentType, endpoint: SmpEndpoint, signingKey?: SmpSigningKey): string {
  const xml = toXml(
    el('smp:SignedServiceMetadata', { 'xmlns:smp': SMP_NAMESPACE, 'xmlns:id': IDS_NAMESPACE, 'xmlns:wsa': WSA_NAMESPACE },
      el('smp:ServiceMetadata', {},
        el('smp:ServiceInformation', {},
          el('id:ParticipantIdentifier', { scheme: PARTICIPANT_ID_SCHEME }, withoutScheme(participantId)),
          el('id:DocumentIdentifier', { scheme: documentType.scheme }, documentType.value),
          el('smp:ProcessList', {},
            el('smp:Process', {},
              el('id:ProcessIdentifier', { scheme: documentType.processScheme }, documentType.processId),
              el('smp:ServiceEndpointList', {},
                el('smp:Endpoint', { transportProfile: AS4_TRANSPORT_PROFILE },
                  el('wsa:EndpointReference', {}, el('wsa:Address', {}, endpoint.endpointUri)),
                  el('smp:RequireBusinessLevelSignature', {}, 'false'),
                  el('smp:Certificate', {}, endpoint.certificate),
                  el('smp:ServiceDescription', {}, endpoint.serviceDescription),
                  el('smp:TechnicalContactUrl', {}, endpoint.technicalContactUrl),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
  return signingKey ? signServiceMetadata(xml, signingKey) : xml;
}

/**
 * A Peppol SMP 1.x for tests (issue #46): answers `GET /{participant}/services/{documentType}` with
 * a SignedServiceMetadata (XMLDSig, RSA-SHA256) for the registrations a test makes, 404 for any
 * other. The installation's own SMP (apps/gateway/src/smp) signs with the SMP key it is given; this
 * one serves what no installation would: answers for engines without a gateway (as4-engine.int) and
 * answers signed by a key of the test's choosing (a certificate no SMP CA issued, peppol-as4.e2e).
 *
 * The document is written already in Exclusive XML Canonicalization form (no whitespace between
 * elements, each namespace declared on the first element using it, attributes in order), so the
 * digest is taken over exactly the bytes served, minus the enveloped Signature, as the verifier's
 * exc-c14n transform produces them.
 */
import { createHash, sign } from 'node:crypto';
import { type LocalServer, listenLocally } from '../../libs/areas/src/shared/testing/local-server';

const SMP_NS = 'http://busdox.org/serviceMetadata/publishing/1.0/';
const IDS_NS = 'http://busdox.org/transport/identifiers/1.0/';
const WSA_NS = 'http://www.w3.org/2005/08/addressing';
const DS_NS = 'http://www.w3.org/2000/09/xmldsig#';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
/** The transport profile of Peppol AS4 (Peppol Policy for use of Identifiers, transport profiles). */
export const PEPPOL_AS4_V2 = 'peppol-transport-as4-v2_0';

/** One receiver's endpoint for one document type and process. */
export interface SmpRegistration {
  /** `iso6523-actorid-upis::0208:0202239951` */
  readonly participantId: string;
  /** `busdox-docid-qns::urn:oasis:...::Invoice##...::2.1` */
  readonly documentTypeId: string;
  /** `cenbii-procid-ubl::urn:fdc:peppol.eu:2017:poacc:billing:01:1.0` */
  readonly processId: string;
  readonly endpointUrl: string;
  /** The receiving AP's certificate (PEM). */
  readonly apCertificatePem: string;
  /** Who signs the answer; the SMP's own key unless a test wants a signature that must not verify. */
  readonly signer?: { certificatePem: string; privateKeyPem: string };
}

export class PeppolTestSmp {
  private readonly registrations = new Map<string, SmpRegistration>();
  private server!: LocalServer;

  constructor(private readonly signer: { certificatePem: string; privateKeyPem: string }) {}

  async start(): Promise<this> {
    this.server = await listenLocally((req, res) => {
      // The SMP client asks /{participant}/services/{documentType}, each percent-encoded.
      const [participant, services, documentType] = (req.url ?? '').split('/').filter(Boolean).map(decodeURIComponent);
      const registration = services === 'services' ? this.registrations.get(key(participant, documentType)) : undefined;
      if (req.method !== 'GET' || !registration) {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.setHeader('content-type', 'text/xml; charset=UTF-8');
      res.end(signedServiceMetadata(registration, registration.signer ?? this.signer));
    });
    return this;
  }

  /** The SMP's base URL for PEPPOL_SMP_URL. */
  get url(): string {
    return `${this.server.url}/`;
  }

  register(registration: SmpRegistration): void {
    this.registrations.set(key(registration.participantId, registration.documentTypeId), registration);
  }

  close(): Promise<void> {
    return this.server.stop();
  }
}

/** Participant values are case-insensitive in the iso6523-actorid-upis scheme; SMPs compare them so. */
const key = (participantId: string, documentTypeId: string) => `${participantId.toLowerCase()} ${documentTypeId}`;

function signedServiceMetadata(r: SmpRegistration, signer: { certificatePem: string; privateKeyPem: string }): string {
  const [participantScheme, participantValue] = split(r.participantId);
  const [documentScheme, documentValue] = split(r.documentTypeId);
  const [processScheme, processValue] = split(r.processId);
  const ids = (name: string, scheme: string, value: string) => `<ids:${name} xmlns:ids="${IDS_NS}" scheme="${attribute(scheme)}">${text(value)}</ids:${name}>`;
  const endpoint =
    `<Endpoint transportProfile="${PEPPOL_AS4_V2}">` +
    `<wsa:EndpointReference xmlns:wsa="${WSA_NS}"><wsa:Address>${text(r.endpointUrl)}</wsa:Address></wsa:EndpointReference>` +
    '<RequireBusinessLevelSignature>false</RequireBusinessLevelSignature>' +
    `<Certificate>${base64Der(r.apCertificatePem)}</Certificate>` +
    '<ServiceDescription>einvoice test access point</ServiceDescription>' +
    '<TechnicalContactUrl>https://einvoice.example/contact</TechnicalContactUrl>' +
    '</Endpoint>';
  const metadata =
    '<ServiceMetadata><ServiceInformation>' +
    ids('ParticipantIdentifier', participantScheme, participantValue) +
    ids('DocumentIdentifier', documentScheme, documentValue) +
    `<ProcessList><Process>${ids('ProcessIdentifier', processScheme, processValue)}<ServiceEndpointList>${endpoint}</ServiceEndpointList></Process></ProcessList>` +
    '</ServiceInformation></ServiceMetadata>';
  const open = `<SignedServiceMetadata xmlns="${SMP_NS}">`;
  const close = '</SignedServiceMetadata>';

  // Reference URI="": the whole document without the Signature (enveloped-signature transform).
  const digest = createHash('sha256').update(open + metadata + close, 'utf8').digest('base64');
  const signedInfo =
    `<SignedInfo xmlns="${DS_NS}">` +
    `<CanonicalizationMethod Algorithm="${EXC_C14N}"></CanonicalizationMethod>` +
    '<SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"></SignatureMethod>' +
    '<Reference URI=""><Transforms>' +
    `<Transform Algorithm="${DS_NS}enveloped-signature"></Transform><Transform Algorithm="${EXC_C14N}"></Transform>` +
    '</Transforms><DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"></DigestMethod>' +
    `<DigestValue>${digest}</DigestValue></Reference></SignedInfo>`;
  const signatureValue = sign('sha256', Buffer.from(signedInfo, 'utf8'), signer.privateKeyPem).toString('base64');
  const signature =
    `<Signature xmlns="${DS_NS}">${signedInfo}<SignatureValue>${signatureValue}</SignatureValue>` +
    `<KeyInfo><X509Data><X509Certificate>${base64Der(signer.certificatePem)}</X509Certificate></X509Data></KeyInfo></Signature>`;
  return `<?xml version="1.0" encoding="UTF-8"?>${open}${metadata}${signature}${close}`;
}

/** `scheme::value`; the value may itself contain `::` (document type ids do). */
function split(identifier: string): [string, string] {
  const at = identifier.indexOf('::');
  return [identifier.slice(0, at), identifier.slice(at + 2)];
}

const base64Der = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

/** Escaping exactly as canonical XML writes text and attribute values (C14N 1.0, "Processing Model"). */
const text = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/**
 * Test-only local fake of the Peppol SML (BDMSL) participant service (never imported by production
 * code), for the live SML client (libs/areas/src/peppol-participants/bdmsl-sml.ts). It speaks the wire
 * format of `ManageBusinessIdentifierService` 1.0 as its WSDL and schema define it (peppol-commons
 * `ManageBusinessIdentifierService-1.0.wsdl`/`.xsd`, `Identifiers-1.0.xsd`):
 * - HTTPS that demands a client certificate of its CA (BDMSL authenticates the SMP by it), `POST
 *   <base>/manageparticipantidentifier`, `text/xml`, the binding's soapAction;
 * - the request checked against the operation's input message: a SOAP 1.1 envelope whose Body holds
 *   exactly one `CreateParticipantIdentifier` or `DeleteParticipantIdentifier` of the locator
 *   namespace, its sequence exactly `ServiceMetadataPublisherID` (locator namespace, non-empty) then
 *   `ParticipantIdentifier` (identifiers namespace, a non-empty `scheme`, a non-empty value). A request
 *   that breaks it is recorded in `violations` and answered as CXF answers an unmarshalling error;
 * - the answers: an empty body for a success; BDMSL's faults (HTTP 500, `detail` holding the typed
 *   fault and its `FaultMessage`, `faultstring` a session id as `AbstractWSImpl` makes it):
 *   `BadRequestFault` for a participant created twice, `NotFoundFault` for a participant not there or an
 *   SMP ID it does not know, `UnauthorizedFault` for an SMP ID that is not the client certificate's.
 * `mode` makes it fail as a service can: `internal` (InternalErrorFault), `down` (HTTP 503).
 */
import { X509Certificate, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { BDMSL_ACTIONS, BDMSL_NAMESPACES, MANAGE_PARTICIPANT_PATH } from '../../../libs/areas/src/peppol-participants/bdmsl-sml';
import { requestText } from '../../../libs/areas/src/shared/testing/local-server';
import { XmlSyntaxError, parseXml, type XmlElement } from '../../../libs/areas/src/shared/xml-read';

export interface FakeBdmslOptions {
  readonly key: string;
  readonly cert: string;
  /** The CA client certificates must chain to. */
  readonly ca: string;
  /** SMP ID → the PEM certificate that SMP was registered with. */
  readonly smps: Readonly<Record<string, string>>;
}

type Fault = 'BadRequestFault' | 'NotFoundFault' | 'UnauthorizedFault' | 'InternalErrorFault';
const OPERATIONS = { CreateParticipantIdentifier: 'create', DeleteParticipantIdentifier: 'delete' } as const;

export class FakeBdmsl {
  mode: 'ok' | 'internal' | 'down' = 'ok';
  /** Every request body received, as sent. */
  readonly received: string[] = [];
  /** How requests broke the WSDL's messages: empty when every one was right. */
  readonly violations: string[] = [];
  /** What it holds: `scheme::value` (value lower-cased, as the SML's DNS names are) → SMP ID. */
  readonly participants = new Map<string, string>();
  private server?: https.Server;
  private readonly fingerprints: ReadonlyMap<string, string>;

  constructor(private readonly options: FakeBdmslOptions) {
    this.fingerprints = new Map(Object.entries(options.smps).map(([id, pem]) => [id, new X509Certificate(pem).fingerprint256]));
  }

  /** Listens on 127.0.0.1; answers the management base URL (the SML's `/edelivery-sml`). */
  async start(): Promise<string> {
    const { key, cert, ca } = this.options;
    this.server = https.createServer({ key, cert, ca, requestCert: true, rejectUnauthorized: true }, (request, response) => {
      void requestText(request).then((xml) => this.answer(xml, request, response));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}/edelivery-sml`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private answer(xml: string, request: IncomingMessage, response: ServerResponse): void {
    this.received.push(xml);
    if (this.mode === 'down') return void response.writeHead(503).end('Service Unavailable');
    if (request.method !== 'POST' || request.url !== `/edelivery-sml${MANAGE_PARTICIPANT_PATH}`) return void response.writeHead(404).end();
    const checked = this.check(xml, request);
    if (typeof checked === 'string') {
      this.violations.push(checked);
      return void this.clientFault(response, checked);
    }
    if (this.mode === 'internal') return void this.fault(response, 'InternalErrorFault', 'Internal error');
    const { operation, smpId, participant } = checked;
    const expected = this.fingerprints.get(smpId);
    if (!expected) return void this.fault(response, 'NotFoundFault', `The SMP '${smpId}' doesn't exist.`);
    const peer = (request.socket as TLSSocket).getPeerX509Certificate();
    if (peer?.fingerprint256 !== expected) return void this.fault(response, 'UnauthorizedFault', `The certificate is not allowed to manage the SMP '${smpId}'.`);
    const holder = this.participants.get(participant);
    if (operation === 'create') {
      if (holder) return void this.fault(response, 'BadRequestFault', `The participant identifier '${participant}' already exists.`);
      this.participants.set(participant, smpId);
    } else {
      if (holder !== smpId) return void this.fault(response, 'NotFoundFault', `The participant identifier '${participant}' doesn't exist for the SMP '${smpId}'.`);
      this.participants.delete(participant);
    }
    response.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(`<soap:Envelope xmlns:soap="${BDMSL_NAMESPACES.soap}"><soap:Body/></soap:Envelope>`);
  }

  /** The request against the binding and the operation's input message: what it asks, or what is wrong with it. */
  private check(xml: string, request: IncomingMessage): { operation: 'create' | 'delete'; smpId: string; participant: string } | string {
    if (!request.headers['content-type']?.startsWith('text/xml')) return `content-type ${request.headers['content-type']} is not text/xml (SOAP 1.1)`;
    let envelope: XmlElement;
    try {
      envelope = parseXml(xml);
    } catch (error) {
      if (error instanceof XmlSyntaxError) return `not well-formed: ${error.message}`;
      throw error;
    }
    const { soap, locator, identifiers } = BDMSL_NAMESPACES;
    if (envelope.ns !== soap || envelope.name !== 'Envelope') return `the root is {${envelope.ns}}${envelope.name}, not a SOAP 1.1 Envelope`;
    const body = envelope.children.filter((c) => c.ns === soap && c.name === 'Body');
    if (body.length !== 1) return 'the Envelope has no single Body';
    const [message, ...more] = body[0].children;
    if (!message || more.length) return 'the Body must hold exactly one element (document/literal, one part)';
    const operation = message.ns === locator ? OPERATIONS[message.name as keyof typeof OPERATIONS] : undefined;
    if (!operation) return `{${message.ns}}${message.name} is no input message of the participant service`;
    const action = request.headers.soapaction;
    if (action !== `"${BDMSL_ACTIONS[operation]}"`) return `soapAction ${action} is not the ${operation} operation's`;
    const [smp, participant, ...rest] = message.children;
    if (smp?.ns !== locator || smp.name !== 'ServiceMetadataPublisherID') return 'the first element must be {locator}ServiceMetadataPublisherID';
    if (participant?.ns !== identifiers || participant.name !== 'ParticipantIdentifier') return 'the second element must be {identifiers}ParticipantIdentifier';
    if (rest.length) return 'ServiceMetadataPublisherServiceForParticipantType has two elements only';
    const smpId = smp.text.trim();
    const scheme = participant.attrs.scheme?.trim();
    const value = participant.text.trim();
    if (!smpId) return 'ServiceMetadataPublisherID is empty';
    if (!scheme) return 'ParticipantIdentifier has no scheme attribute';
    if (!value) return 'ParticipantIdentifier is empty';
    return { operation, smpId, participant: `${scheme}::${value.toLowerCase()}` };
  }

  private fault(response: ServerResponse, fault: Fault, message: string): void {
    response.writeHead(500, { 'content-type': 'text/xml; charset=utf-8' }).end(
      `<soap:Envelope xmlns:soap="${BDMSL_NAMESPACES.soap}"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode>` +
        `<faultstring>${randomUUID()}</faultstring><detail><ns2:${fault} xmlns:ns2="${BDMSL_NAMESPACES.locator}" xmlns:ns3="${BDMSL_NAMESPACES.identifiers}">` +
        `<ns2:FaultMessage>${message.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</ns2:FaultMessage></ns2:${fault}></detail></soap:Fault></soap:Body></soap:Envelope>`,
    );
  }

  /** What CXF answers a message it cannot unmarshal: a Client fault without BDMSL's detail. */
  private clientFault(response: ServerResponse, reason: string): void {
    response.writeHead(500, { 'content-type': 'text/xml; charset=utf-8' }).end(
      `<soap:Envelope xmlns:soap="${BDMSL_NAMESPACES.soap}"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode>` +
        `<faultstring>Unmarshalling Error: ${reason.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</faultstring></soap:Fault></soap:Body></soap:Envelope>`,
    );
  }
}

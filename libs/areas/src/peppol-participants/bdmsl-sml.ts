/**
 * The Peppol SML, live: BDMSL's `ManageBusinessIdentifierService` (SOAP 1.1, document/literal), the
 * interface SMPs register participants through (issue #46). Sources: the service's WSDL and schema as
 * peppol-commons ships them (`peppol-sml-client/src/main/resources/WEB-INF/wsdl/
 * ManageBusinessIdentifierService-1.0.wsdl` and `-1.0.xsd`): `Create` takes `CreateParticipantIdentifier`,
 * `Delete` takes `DeleteParticipantIdentifier`, both a `ServiceMetadataPublisherID` then an
 * `ids:ParticipantIdentifier` with its `scheme`; both answer an empty body or one of four faults,
 * `BadRequestFault`, `NotFoundFault`, `UnauthorizedFault`, `InternalErrorFault`, each with an optional
 * `FaultMessage` (BDMSL's `AbstractWSImpl.handleException` fills it with the reason).
 * The SML knows the SMP by its client certificate (mutual TLS, the SMP certificate) and its SMP ID.
 * Both operations are made idempotent as the connector promises, the way phoss SMP reads BDMSL's answers
 * (`SMLRepairJob`): a create answered BadRequest "already exists / already in use" is registered already,
 * a delete answered NotFound is removed already (a worker killed after the call and before its commit
 * calls again).
 */
import { AppError } from '@einvoice/domain';
import { AuthorityHttp, type AuthorityTls } from '../shared/authority-http';
import { escapeXml } from '../shared/xml';
import { first, soapBody, textAt } from '../shared/xml-read';
import type { SmlConnector } from './sml-connector';

/**
 * The SML's management base URLs (peppol-commons `ESML`: PEPPOL_TEST and PEPPOL_PRODUCTION). OpenPeppol
 * took the SML over from the European Commission's DG DIGIT in 2026 ("SML insourcing": migration window
 * from 19 March, SMP registrations by 31 May 2026); the DIGIT URLs (`acc.edelivery.tech.ec.europa.eu`,
 * `edelivery.tech.ec.europa.eu`) are deprecated there. `PEPPOL_SML_URL` names another.
 */
export const SML_ENDPOINTS = {
  test: 'https://api.sml.test.tech.peppol.org/edelivery-sml',
  production: 'https://api.sml.prod.tech.peppol.org/edelivery-sml',
} as const;

/** The service under the base URL (peppol-commons `SMLInfo.getManageParticipantIdentifierEndpointAddress`). */
export const MANAGE_PARTICIPANT_PATH = '/manageparticipantidentifier';

export const BDMSL_NAMESPACES = {
  locator: 'http://busdox.org/serviceMetadata/locator/1.0/',
  identifiers: 'http://busdox.org/transport/identifiers/1.0/',
  soap: 'http://schemas.xmlsoap.org/soap/envelope/',
} as const;

/**
 * The binding's soapAction, as a JAX-WS client sends it: the WSDL writes it across a line break, which
 * XML attribute normalisation turns into nine spaces (peppol-commons' generated
 * `ManageBusinessIdentifierServiceSoap`: `.../1.0/         :createIn`).
 */
export const BDMSL_ACTIONS = {
  create: 'http://busdox.org/serviceMetadata/ManageBusinessIdentifierService/1.0/         :createIn',
  delete: 'http://busdox.org/serviceMetadata/ManageBusinessIdentifierService/1.0/         :deleteIn',
} as const;

export type BdmslFault = 'BadRequestFault' | 'NotFoundFault' | 'UnauthorizedFault' | 'InternalErrorFault';
const FAULTS: ReadonlySet<string> = new Set<BdmslFault>(['BadRequestFault', 'NotFoundFault', 'UnauthorizedFault', 'InternalErrorFault']);

export interface BdmslSmlOptions {
  /** The management base URL (SML_ENDPOINTS.test, .production or PEPPOL_SML_URL). */
  readonly url: string;
  /** The SMP ID this SMP was registered with at the SML (PEPPOL_SMP_ID). */
  readonly smpId: string;
  /** The SMP certificate and key (PEM); `ca` when the SML's server certificate is not a public CA's (tests). */
  readonly tls: AuthorityTls;
  readonly timeoutMs: number;
}

type Operation = 'create' | 'delete';
const ELEMENTS: Record<Operation, string> = { create: 'CreateParticipantIdentifier', delete: 'DeleteParticipantIdentifier' };

export class BdmslSml implements SmlConnector {
  private readonly http: AuthorityHttp;
  private readonly endpoint: string;

  constructor(private readonly options: BdmslSmlOptions) {
    this.http = new AuthorityHttp({ area: 'peppol', authority: 'The SML', timeoutMs: options.timeoutMs, codes: { unavailable: 'SML.UNAVAILABLE' }, tls: options.tls });
    this.endpoint = `${options.url.replace(/\/+$/, '')}${MANAGE_PARTICIPANT_PATH}`;
  }

  async register(participantId: string): Promise<void> {
    const fault = await this.call('create', participantId);
    // Registered by an earlier call whose outcome was not recorded.
    if (fault?.kind === 'BadRequestFault' && /already (exist|in use)/i.test(fault.message)) return;
    if (fault) throw errorOf('create', fault, participantId, this.options.smpId);
  }

  async unregister(participantId: string): Promise<void> {
    const fault = await this.call('delete', participantId);
    if (fault?.kind === 'NotFoundFault') return;
    if (fault) throw errorOf('delete', fault, participantId, this.options.smpId);
  }

  private async call(operation: Operation, participantId: string): Promise<{ kind?: BdmslFault; message: string } | undefined> {
    const envelope = participantRequest(operation, this.options.smpId, participantId);
    const text = await this.http.soap({ name: ELEMENTS[operation], url: this.endpoint, action: BDMSL_ACTIONS[operation], envelope });
    return faultIn(text);
  }
}

/** The SOAP envelope of a Create or Delete: the SMP ID, then the participant id split at `::` into its scheme and value. */
export function participantRequest(operation: Operation, smpId: string, participantId: string): string {
  const split = participantId.indexOf('::');
  if (split <= 0) throw new AppError('validation', 'SML.BAD_PARTICIPANT_ID', `${participantId} is not a participant id (scheme::value).`, { retriable: false });
  const { locator, identifiers, soap } = BDMSL_NAMESPACES;
  const element = ELEMENTS[operation];
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<S:Envelope xmlns:S="${soap}"><S:Body>` +
    `<lrs:${element} xmlns:lrs="${locator}" xmlns:ids="${identifiers}">` +
    `<lrs:ServiceMetadataPublisherID>${escapeXml(smpId)}</lrs:ServiceMetadataPublisherID>` +
    `<ids:ParticipantIdentifier scheme="${escapeXml(participantId.slice(0, split))}">${escapeXml(participantId.slice(split + 2))}</ids:ParticipantIdentifier>` +
    `</lrs:${element}></S:Body></S:Envelope>`
  );
}

/** The fault of an answer: its BDMSL type (from `detail`) and message; undefined for a success. */
function faultIn(text: string): { kind?: BdmslFault; message: string } | undefined {
  const fault = first(soapBody(text), 'Fault');
  if (!fault) return undefined;
  const typed = first(fault, 'detail')?.children.find((child) => child.ns === BDMSL_NAMESPACES.locator && FAULTS.has(child.name));
  const message = textAt(typed, 'FaultMessage') ?? textAt(fault, 'faultstring') ?? 'no message';
  return { kind: typed?.name as BdmslFault | undefined, message };
}

/** What each fault means for this SMP's call; only the SML's own trouble is worth a retry. */
function errorOf(operation: Operation, fault: { kind?: BdmslFault; message: string }, participantId: string, smpId: string): AppError {
  const what = `${operation === 'create' ? 'registering' : 'removing'} ${participantId}`;
  const said = fault.message.replace(/\.+$/, '');
  const final = (code: string, message: string) => new AppError('validation', code, message, { retriable: false, details: { participantId, smpId, fault: fault.kind } });
  switch (fault.kind) {
    case 'UnauthorizedFault':
      return final('SML.UNAUTHORIZED', `The SML refused ${what} for SMP ${smpId}: ${said}. The participant may belong to another SMP, or the SMP certificate (PEPPOL_SMP_KEYSTORE) is not the one registered for SMP ID ${smpId}.`);
    case 'NotFoundFault':
      return final('SML.SMP_NOT_FOUND', `The SML does not know SMP ID ${smpId} (${what}): ${said}. Register the SMP at the SML first (PEPPOL_SMP_ID names it).`);
    case 'BadRequestFault':
      return final('SML.BAD_REQUEST', `The SML refused ${what}: ${said}.`);
    case 'InternalErrorFault':
    case undefined:
      return new AppError('unavailable', 'SML.UNAVAILABLE', `The SML failed ${what}: ${said}.`, { retriable: true, details: { participantId, smpId, fault: fault.kind ?? 'Fault' } });
    default: {
      const unexpected: never = fault.kind;
      return unexpected;
    }
  }
}

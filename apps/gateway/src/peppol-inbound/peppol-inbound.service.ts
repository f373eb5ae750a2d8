import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  type DocumentSubmittedData,
  type EventMetadata,
  type MessageLevelStatus,
  type PeppolExchangeFacts,
  type RecordedEvent,
  WrongExpectedVersionError,
  createLogger,
  deterministicUuid,
  documentDecider,
  documentStreamId,
  peppolTransmissionDecider,
  peppolTransmissionStreamId,
} from '@einvoice/domain';
import { type ReceivedReport, type UnitOfWork, handleCommand, recordReceivedDocument } from '@einvoice/domain/infrastructure';
import {
  type Mls,
  AS4_TRANSPORT_PROFILE,
  MlsFormatError,
  type ReceivedCheck,
  answerMls,
  areas,
  checkReceivedDocument,
  isMlsDocumentType,
  parseMls,
  seatIdOf,
  serviceProviderIdOf,
  withParticipantScheme,
} from '@einvoice/areas';
import { Connections } from '../infrastructure/infrastructure.module';
import type { InboundMessage } from './inbound-message';
import { type PeppolInboundSettings, loadPeppolInboundSettings } from './inbound-settings';

const log = createLogger('gateway');

/** The contract's answers (docs/peppol-as4.md "Inbound"): a status and a small JSON body. */
export interface InboundAnswer {
  readonly statusCode: number;
  readonly body: { readonly status?: 'accepted' | 'duplicate'; readonly code?: string; readonly message?: string };
}

const accepted: InboundAnswer = { statusCode: 200, body: { status: 'accepted' } };
const duplicate: InboundAnswer = { statusCode: 200, body: { status: 'duplicate' } };

interface HostedReceiver {
  readonly participant_id: string;
  readonly supplier_id: string;
  readonly tenant_id: string;
  readonly area: string;
  /** The receiving supplier's country: C4's, for Peppol Reporting. */
  readonly country: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What the AS4 engine received from another access point (#46). A business document for a supplier
 * hosted here is checked (peppol-ubl/received.ts), recorded as a document delivered internally is
 * (recordReceivedDocument: DocumentReceived, and the received copy's report where its area has one),
 * and answered with an MLS back to the sender, AP or RE, requested for the delivery worker to send in
 * the same transaction; its AS4 MessageId keys both (the received copy's and the MLS's ids derive from
 * it), so the engine posting it again is a `duplicate`, recorded and answered once. An MLS is the
 * outcome of the document it names (RecordMessageLevelStatus), never answered with an MLS (MLS 1.0 §2).
 */
@Injectable()
export class PeppolInboundService {
  readonly settings: PeppolInboundSettings = loadPeppolInboundSettings();
  private readonly receivedReports = new Map<string, ReceivedReport>(
    areas.flatMap((area) => (area.exchange?.receivedReport ? [[area.code, { ruleSetId: area.ruleSetId, payload: area.exchange.receivedReport }] as const] : [])),
  );

  constructor(private readonly connections: Connections) {}

  receive(message: InboundMessage): Promise<InboundAnswer> {
    return isMlsDocumentType(message.documentTypeId) ? this.receiveMls(message) : this.receiveDocument(message);
  }

  private async receiveDocument(message: InboundMessage): Promise<InboundAnswer> {
    const hosted = await this.hostedReceiver(message.receiverParticipantId);
    if (!hosted) return { statusCode: 404, body: { code: 'PEPPOL.RECEIVER_NOT_SERVICED', message: `${message.receiverParticipantId} is not a participant hosted by this access point.` } };
    const receivedDocumentId = deterministicUuid(`peppol-inbound:${message.messageId}`);
    const transmissionId = deterministicUuid(`mls:${message.messageId}`);
    if (await this.recorded([documentStreamId(receivedDocumentId), peppolTransmissionStreamId(transmissionId)])) return duplicate;
    const check = checkReceivedDocument(message.documentTypeId, message.payload);
    const receivedAt = message.receivedAt ?? new Date().toISOString();
    const metadata: EventMetadata = { tenantId: hosted.tenant_id, correlationId: message.conversationId ?? message.messageId };
    try {
      await this.connections.store.transaction(async (uow) => {
        if (check.ok) await this.recordDocument(uow, message, hosted, receivedDocumentId, check.document, receivedAt, metadata);
        await this.requestMls(uow, message, check, transmissionId, metadata);
      });
    } catch (error) {
      // The engine posted it again while the first was being recorded: that one stands.
      if (error instanceof WrongExpectedVersionError) return duplicate;
      throw error;
    }
    if (check.ok) {
      log('info', 'peppol document received', { messageId: message.messageId, documentId: receivedDocumentId, receiver: hosted.participant_id });
      return accepted;
    }
    log('warn', 'peppol document rejected', { messageId: message.messageId, code: check.code, reason: check.reason });
    return { statusCode: 400, body: { code: check.code, message: check.message } };
  }

  private async recordDocument(
    uow: UnitOfWork,
    message: InboundMessage,
    hosted: HostedReceiver,
    documentId: string,
    document: Extract<ReceivedCheck, { ok: true }>['document'],
    receivedAt: string,
    metadata: EventMetadata,
  ): Promise<void> {
    const area = this.receivedReports.get(hosted.area);
    const report = area ? { area, sha256: createHash('sha256').update(message.payload).digest('hex') } : undefined;
    await recordReceivedDocument(uow, {
      documentId,
      tenantId: hosted.tenant_id,
      supplierId: hosted.supplier_id,
      area: hosted.area,
      documentNumber: document.documentNumber,
      documentType: document.typeCode,
      senderParticipantId: message.senderParticipantId,
      receiverParticipantId: hosted.participant_id,
      sourceDocumentId: null,
      messageId: message.messageId,
      // What the UBL says of itself (BT-1, BT-3, BT-2, BT-5) under the names BE/DE/SG reads show, and its sender
      // (`counterparty`, the account-wide list's, #50); the whole document is its XML.
      fields: { ID: document.documentNumber, DocumentType: document.typeCode, IssueDate: document.issueDate, DocumentCurrencyCode: document.currency, counterparty: document.sender },
      xml: message.payload,
      peppol: exchangeFactsOf(message, hosted),
      receivedAt,
    }, metadata, report);
  }

  /**
   * The MLS back to the sending access point (MLS 1.0 §3): where its MLS_TO says, else to the service
   * provider its certificate names; a positive one unless it asked for failures only. None when it can
   * be addressed nowhere (said in the log: the sender's SLA reporting will miss it).
   */
  private async requestMls(uow: UnitOfWork, message: InboundMessage, check: ReceivedCheck, transmissionId: string, metadata: EventMetadata): Promise<void> {
    if (check.ok && message.mlsType === 'FAILURE_ONLY') return;
    const theirs = message.mlsTo ?? (message.senderCertificate ? serviceProviderIdOf(message.senderCertificate) : undefined);
    const { serviceProviderId, serviceProviderCountry } = this.settings;
    if (!theirs || !serviceProviderId || !serviceProviderCountry) {
      log('warn', 'no MLS sent: the sender names no MLS_TO and its certificate no seat id', { messageId: message.messageId });
      return;
    }
    const now = new Date().toISOString();
    const mls = answerMls({
      mlsId: transmissionId,
      issuedAt: now,
      ourServiceProviderId: serviceProviderId,
      theirServiceProviderId: theirs,
      instanceIdentifier: message.instanceIdentifier,
      verdict: check.ok ? { accepted: true } : { accepted: false, description: check.message, issues: check.issues },
    });
    await handleCommand(uow, peppolTransmissionDecider, peppolTransmissionStreamId(transmissionId), {
      type: 'RequestPeppolTransmission',
      data: {
        transmissionId,
        purpose: 'mls',
        messageId: `${deterministicUuid(`as4:mls:${message.messageId}`)}@einvoice-gateway`,
        instanceIdentifier: transmissionId,
        ...mls,
        countryC1: serviceProviderCountry,
        inReplyTo: message.messageId,
        requestedAt: now,
      },
    }, metadata, { newStream: true });
  }

  /**
   * An MLS for us: the outcome of the document whose transmission it names (its DocumentReference is
   * that transmission's SBDH InstanceIdentifier, the document id: sbdhInstanceIdentifier). One that names
   * no document of ours is taken (the transport succeeded) and said in the log.
   */
  private async receiveMls(message: InboundMessage): Promise<InboundAnswer> {
    const ours = this.settings.serviceProviderId;
    if (!ours || withParticipantScheme(ours).toLowerCase() !== message.receiverParticipantId.toLowerCase()) {
      return { statusCode: 404, body: { code: 'PEPPOL.RECEIVER_NOT_SERVICED', message: `${message.receiverParticipantId} is not this access point's service provider id.` } };
    }
    let mls: Mls;
    try {
      mls = parseMls(message.payload);
    } catch (error) {
      if (error instanceof MlsFormatError) return { statusCode: 400, body: { code: 'PEPPOL.MLS_INVALID', message: error.message } };
      throw error;
    }
    const documentId = mls.messageId;
    const stream = documentStreamId(documentId);
    const history = UUID.test(documentId) ? await this.connections.store.readStream(stream) : [];
    const submitted = history[0]?.type === 'DocumentSubmitted' ? (history[0].data as DocumentSubmittedData) : undefined;
    if (!submitted) {
      log('warn', 'MLS for no document sent from here', { messageId: message.messageId, reference: documentId });
      return accepted;
    }
    const status: MessageLevelStatus = {
      responseCode: mls.responseCode,
      receivedAt: message.receivedAt ?? new Date().toISOString(),
      ...(mls.description ? { description: mls.description } : {}),
      ...reasonOf(mls),
    };
    const metadata: EventMetadata = { tenantId: submitted.tenantId, correlationId: history[0].metadata.correlationId, ruleSetId: history[0].metadata.ruleSetId };
    const record = (known?: typeof history) => this.connections.store.transaction((uow) =>
      handleCommand(uow, documentDecider, stream, { type: 'RecordMessageLevelStatus', data: { documentId, mls: status, recordedAt: status.receivedAt } }, metadata, { history: known }));
    let appended: RecordedEvent[];
    try {
      appended = await record(history);
    } catch (error) {
      // The delivery worker recorded the receipt meanwhile: decide again on the stream as it is.
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      appended = await record();
    }
    log('info', 'MLS received', { documentId, responseCode: mls.responseCode, recorded: appended.length > 0 });
    return appended.length > 0 ? accepted : duplicate;
  }

  private async hostedReceiver(participantId: string): Promise<HostedReceiver | undefined> {
    const rows = await this.connections.store.read<HostedReceiver>(
      `SELECT p.participant_id, p.supplier_id, p.tenant_id, s.area, s.profile->>'country' AS country FROM supplier_participants p JOIN suppliers s ON s.id = p.supplier_id
       WHERE p.participant_id = $1 OR p.participant_id = lower($1) LIMIT 1`,
      [participantId],
    );
    return rows[0];
  }

  private async recorded([first, second]: readonly [string, string]): Promise<boolean> {
    const rows = await this.connections.store.read(`SELECT 1 AS found FROM events WHERE stream_id IN ($1, $2) LIMIT 1`, [first, second]);
    return rows.length > 0;
  }
}

/** RE's reason (the first failing issue's: BV, FD or SV), as a document's MLS keeps it. */
function reasonOf(mls: Mls): Pick<MessageLevelStatus, 'reasonCode'> {
  const reason = mls.issues.find((i) => i.reason === 'BV' || i.reason === 'FD' || i.reason === 'SV')?.reason;
  return mls.responseCode === 'RE' && reason ? { reasonCode: reason as 'BV' | 'FD' | 'SV' } : {};
}

/**
 * What Peppol Reporting records of a document another access point sent here (#46): its envelope, C4's
 * country (the receiving supplier's), and the sending access point's seat id from its certificate.
 */
function exchangeFactsOf(message: InboundMessage, hosted: HostedReceiver): PeppolExchangeFacts {
  return {
    documentTypeId: message.documentTypeId,
    processId: message.processId,
    senderParticipantId: message.senderParticipantId,
    receiverParticipantId: hosted.participant_id,
    countryC1: message.countryC1 ?? 'ZZ',
    ...(hosted.country ? { countryC4: hosted.country } : {}),
    transport: { profile: AS4_TRANSPORT_PROFILE, otherAccessPoint: (message.senderCertificate && seatIdOf(message.senderCertificate)) || 'unknown' },
  };
}

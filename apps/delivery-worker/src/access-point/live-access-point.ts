import { type As4Engine, isMlsDocumentType } from '@einvoice/areas';
import type { AccessPointConnector, Transmission, TransmissionAnswer } from './access-point';

/**
 * The access point in PEPPOL_MODE=live (#46, docs/peppol-as4.md): a document goes to the AS4 engine
 * with its envelope (its Peppol document type, process and COUNTRY_C1, read by the delivery worker from
 * the document itself), the AS4 MessageId and SBDH InstanceIdentifier derived from its id (the same on
 * every retry), and the engine's answer comes back as the receiving access point's AS4 receipt: the
 * document is sent, its Message Level Status to come as an inbound message.
 *
 * A business document asks for its MLS in the SBDH (MLS 1.0 §4: MLS_TO this access point's service
 * provider id, MLS_TYPE ALWAYS_SEND, since a positive MLS is what makes it Delivered); an MLS asks for none.
 */
export class LiveAccessPoint implements AccessPointConnector {
  /** @param serviceProviderId PEPPOL_SERVICE_PROVIDER_ID (`0242:000123`): where MLS come back to; unset, the receiver answers the id our AP certificate names. */
  constructor(
    private readonly engine: Pick<As4Engine, 'send'>,
    private readonly serviceProviderId?: string,
  ) {}

  async send(transmission: Transmission): Promise<TransmissionAnswer> {
    const sent = await this.engine.send({
      messageId: transmission.messageId,
      instanceIdentifier: transmission.instanceIdentifier,
      senderParticipantId: transmission.senderParticipantId,
      receiverParticipantId: transmission.receiverParticipantId,
      documentTypeId: transmission.documentTypeId,
      processId: transmission.processId,
      countryC1: transmission.countryC1,
      payload: transmission.xml,
      ...(isMlsDocumentType(transmission.documentTypeId) ? {} : { mlsType: 'ALWAYS_SEND' as const, ...(this.serviceProviderId ? { mlsTo: this.serviceProviderId } : {}) }),
    });
    return { receipt: sent.receipt, receiverEndpoint: sent.receiverEndpoint, transport: sent.transport };
  }
}

import type { As4Engine } from '@einvoice/areas';
import type { AccessPointConnector, Transmission, TransmissionAnswer } from './access-point';

/**
 * The access point in PEPPOL_MODE=live (#46, docs/peppol-as4.md): a document goes to the AS4 engine
 * with its envelope (its Peppol document type, process and COUNTRY_C1, read by the delivery worker from
 * the document itself), the AS4 MessageId and SBDH InstanceIdentifier derived from its id (the same on
 * every retry), and the engine's answer comes back as the receiving access point's AS4 receipt: the
 * document is sent, its Message Level Status to come as an inbound message.
 */
export class LiveAccessPoint implements AccessPointConnector {
  constructor(private readonly engine: Pick<As4Engine, 'send'>) {}

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
    });
    return { receipt: sent.receipt, receiverEndpoint: sent.receiverEndpoint, transport: sent.transport };
  }
}

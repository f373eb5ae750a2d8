import { AppError } from '@einvoice/domain';
import { type As4Engine, envelopeOf } from '@einvoice/areas';
import type { AccessPointConnector, Transmission, TransmissionAnswer } from './access-point';

/**
 * The access point in PEPPOL_MODE=live (#46, docs/peppol-as4.md): a document goes to the AS4 engine
 * with the envelope read from the document itself (its Peppol document type, process and COUNTRY_C1),
 * the AS4 MessageId and SBDH InstanceIdentifier derived from its id (the same on every retry), and
 * the engine's answer comes back as the receiving access point's AS4 receipt: the document is sent,
 * its Message Level Status to come as an inbound message.
 */
export class LiveAccessPoint implements AccessPointConnector {
  constructor(private readonly engine: Pick<As4Engine, 'send'>) {}

  async send(transmission: Transmission): Promise<TransmissionAnswer> {
    let envelope: ReturnType<typeof envelopeOf>;
    try {
      envelope = envelopeOf(transmission.xml);
    } catch (error) {
      // Our own rendering lacks what Peppol routes by: no retry will add it.
      throw new AppError('validation', 'PEPPOL.DOCUMENT_NOT_ROUTABLE', (error as Error).message, { retriable: false, cause: error });
    }
    if (!envelope.countryC1) {
      throw new AppError('validation', 'PEPPOL.DOCUMENT_NOT_ROUTABLE', 'The document names no seller country (BT-40), which the Peppol envelope carries as COUNTRY_C1.', { retriable: false });
    }
    const sent = await this.engine.send({
      messageId: transmission.messageId,
      instanceIdentifier: transmission.instanceIdentifier,
      senderParticipantId: transmission.senderParticipantId,
      receiverParticipantId: transmission.receiverParticipantId,
      documentTypeId: envelope.documentTypeId,
      processId: envelope.processId,
      countryC1: envelope.countryC1,
      payload: transmission.xml,
    });
    return { receipt: sent.receipt, receiverEndpoint: sent.receiverEndpoint };
  }
}

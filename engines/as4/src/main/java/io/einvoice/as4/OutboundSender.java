package io.einvoice.as4;

import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.w3c.dom.Document;

import com.helger.datetime.xml.XMLOffsetDateTime;
import com.helger.peppol.sbdh.EPeppolMLSType;
import com.helger.peppolid.IDocumentTypeIdentifier;
import com.helger.peppolid.IParticipantIdentifier;
import com.helger.peppolid.IProcessIdentifier;
import com.helger.peppolid.factory.PeppolIdentifierFactory;
import com.helger.phase4.ebms3header.Ebms3Error;
import com.helger.phase4.ebms3header.Ebms3SignalMessage;
import com.helger.phase4.messaging.http.HttpRetrySettings;
import com.helger.phase4.peppol.Phase4PeppolSender;
import com.helger.phase4.sender.EAS4UserMessageSendResult;
import com.helger.phase4.util.Phase4Exception;
import com.helger.security.certificate.CertificateHelper;
import com.helger.security.certificate.ECertificateCheckResult;
import com.helger.smpclient.peppol.SMPClientReadOnly;
import com.helger.xml.serialize.read.DOMReader;
import com.helger.xsds.peppol.smp1.EndpointType;

/**
 * Sends one document over Peppol AS4 with phase4's Peppol sender: discovery, the receiver
 * certificate check against the Peppol AP CA, the SBDH with COUNTRY_C1, signing, encryption, and
 * the receipt. Turns each outcome into a receipt or an {@link OutboundFailure}.
 */
final class OutboundSender
{
  private static final Logger LOG = LoggerFactory.getLogger (OutboundSender.class);
  private static final PeppolIdentifierFactory IDS = PeppolIdentifierFactory.INSTANCE;

  private final ApCredentials credentials;
  private final ReceiverDiscovery discovery;

  OutboundSender (final ApCredentials credentials, final ReceiverDiscovery discovery)
  {
    this.credentials = credentials;
    this.discovery = discovery;
  }

  OutboundReceipt send (final OutboundRequest request) throws OutboundFailure
  {
    final IParticipantIdentifier sender = parsed (IDS.parseParticipantIdentifier (request.senderParticipantId ()), "senderParticipantId", request.senderParticipantId ());
    final IParticipantIdentifier receiver = parsed (IDS.parseParticipantIdentifier (request.receiverParticipantId ()), "receiverParticipantId", request.receiverParticipantId ());
    final IDocumentTypeIdentifier documentType = parsed (IDS.parseDocumentTypeIdentifier (request.documentTypeId ()), "documentTypeId", request.documentTypeId ());
    final IProcessIdentifier process = parsed (IDS.parseProcessIdentifier (request.processId ()), "processId", request.processId ());
    if (request.messageId () == null || request.messageId ().isEmpty ())
      throw new OutboundFailure (OutboundFailure.Code.BAD_REQUEST, "messageId is missing");
    if (request.countryC1 () == null || !request.countryC1 ().matches ("[A-Z]{2}"))
      throw new OutboundFailure (OutboundFailure.Code.BAD_REQUEST, "countryC1 must be an ISO 3166 alpha-2 code, not " + request.countryC1 ());
    final IParticipantIdentifier mlsTo = request.mlsTo () == null ? null : parsed (IDS.createParticipantIdentifierWithDefaultScheme (request.mlsTo ()), "mlsTo", request.mlsTo ());
    final EPeppolMLSType mlsType = request.mlsType () == null ? null : EPeppolMLSType.getFromIDOrNull (request.mlsType ());
    if (request.mlsType () != null && mlsType == null)
      throw new OutboundFailure (OutboundFailure.Code.BAD_REQUEST, "mlsType must be ALWAYS_SEND or FAILURE_ONLY, not " + request.mlsType ());
    final String instanceIdentifier = request.instanceIdentifier () == null || request.instanceIdentifier ().isEmpty () ? instanceIdentifierOf (request.messageId ())
                                                                                                                      : request.instanceIdentifier ();
    final Document payload = request.payload () == null ? null : DOMReader.readXMLDOM (request.payload ().getBytes (StandardCharsets.UTF_8));
    if (payload == null || payload.getDocumentElement ().getNamespaceURI () == null)
      throw new OutboundFailure (OutboundFailure.Code.BAD_REQUEST, "payload is not a namespaced XML document");

    final EndpointType endpoint = discovery.endpointOf (receiver, documentType, process);
    final String endpointUrl = SMPClientReadOnly.getEndpointAddress (endpoint);
    final X509Certificate receiverCertificate;
    try
    {
      receiverCertificate = SMPClientReadOnly.getEndpointCertificate (endpoint);
    }
    catch (final CertificateException ex)
    {
      throw new OutboundFailure (OutboundFailure.Code.CERTIFICATE_INVALID, "The SMP publishes no readable certificate for " + endpointUrl, ex);
    }

    final AtomicReference <Ebms3SignalMessage> answer = new AtomicReference <> ();
    final AtomicReference <ECertificateCheckResult> certificateCheck = new AtomicReference <> ();
    final AtomicReference <Phase4Exception> sendError = new AtomicReference <> ();
    final EAS4UserMessageSendResult result = Phase4PeppolSender.builder ()
                                                               .cryptoFactory (credentials.cryptoFactory ())
                                                               .peppolAP_CAChecker (credentials.apCaChecker ())
                                                               .checkReceiverAPCertificate (true)
                                                               .certificateConsumer ( (cert, at, check) -> certificateCheck.set (check))
                                                               .senderPartyID (credentials.seatId ())
                                                               .senderParticipantID (sender)
                                                               .receiverParticipantID (receiver)
                                                               .documentTypeID (documentType)
                                                               .processID (process)
                                                               .countryC1 (request.countryC1 ())
                                                               .messageID (request.messageId ())
                                                               .sbdhInstanceIdentifier (instanceIdentifier)
                                                               .mlsTo (mlsTo)
                                                               .mlsType (mlsType)
                                                               .payload (payload.getDocumentElement ())
                                                               .disableValidation ()
                                                               .receiverEndpointDetails (receiverCertificate, endpointUrl)
                                                               // The delivery worker retries (same MessageId); a retry here would only hold its call.
                                                               .httpRetrySettings (new HttpRetrySettings ().setMaxRetries (0))
                                                               .signalMsgConsumer ( (signal, metadata, state) -> answer.set (signal))
                                                               .sendMessageAndCheckForReceipt (sendError::set);

    final ECertificateCheckResult check = certificateCheck.get ();
    if (check != null && check.isInvalid ())
      throw new OutboundFailure (OutboundFailure.Code.CERTIFICATE_INVALID,
                                 "The certificate the SMP publishes for " + endpointUrl + " is not a valid Peppol AP certificate: " + check.getReason ());
    switch (result)
    {
      case SUCCESS:
      {
        final Ebms3SignalMessage receipt = answer.get ();
        return new OutboundReceipt (request.messageId (),
                                    receipt.getMessageInfo ().getRefToMessageId (),
                                    utc (receipt.getMessageInfo ().getTimestamp ()),
                                    endpointUrl,
                                    endpoint.getTransportProfile (),
                                    CertificateHelper.getSubjectCN (receiverCertificate));
      }
      case INVALID_PARAMETERS:
        // phase4 logged which field it found missing or malformed; the same call would fail again.
        throw new OutboundFailure (OutboundFailure.Code.BAD_REQUEST, "phase4 refused the message fields (see the engine log for which)");
      case AS4_ERROR_MESSAGE_RECEIVED:
        throw new OutboundFailure (OutboundFailure.Code.AS4_REFUSED, "The receiving AP " + endpointUrl + " refused the message: " + describeErrors (answer.get ()));
      default:
      {
        // Transport errors, no answer, an unreadable answer: we do not know whether it arrived, so
        // the only safe reaction is a retry with the same MessageId (the receiver detects duplicates).
        final Phase4Exception cause = sendError.get ();
        LOG.warn ("AS4 send of {} to {} ended with {}", request.messageId (), endpointUrl, result, cause);
        throw new OutboundFailure (OutboundFailure.Code.ACCESS_POINT_UNAVAILABLE,
                                   "No AS4 receipt from " + endpointUrl + " (" + result.name () + (cause == null ? "" : ": " + cause.getMessage ()) + ")",
                                   cause);
      }
    }
  }

  /** ebMS 3 timestamps are UTC; a receipt may write them without the offset. */
  private static String utc (final XMLOffsetDateTime timestamp)
  {
    if (timestamp == null)
      return null;
    return timestamp.getOffset () == null ? timestamp.toLocalDateTime () + "Z" : timestamp.toString ();
  }

  /** The SBDH InstanceIdentifier of a document sent without one: the same on every retry, as phase4 recommends. */
  static String instanceIdentifierOf (final String messageId)
  {
    return UUID.nameUUIDFromBytes (messageId.getBytes (StandardCharsets.UTF_8)).toString ();
  }

  private static String describeErrors (final Ebms3SignalMessage signal)
  {
    final List <String> parts = new ArrayList <> ();
    if (signal != null)
      for (final Ebms3Error error : signal.getError ())
        parts.add (error.getErrorCode () +
                   (error.getShortDescription () == null ? "" : " (" + error.getShortDescription () + ")") +
                   (error.getErrorDetail () == null ? "" : ": " + error.getErrorDetail ()));
    return parts.isEmpty () ? "an ebMS error without details" : String.join ("; ", parts);
  }

  private static <T> T parsed (final T identifier, final String field, final String value) throws OutboundFailure
  {
    if (identifier == null)
      throw new OutboundFailure (OutboundFailure.Code.BAD_REQUEST, field + " is not a Peppol identifier: " + value);
    return identifier;
  }
}

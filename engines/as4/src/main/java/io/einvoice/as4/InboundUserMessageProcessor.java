package io.einvoice.as4;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.StringWriter;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import com.helger.collection.commons.ICommonsList;
import com.helger.http.header.HttpHeaderMap;
import com.helger.peppol.sbdh.PeppolSBDHData;
import com.helger.peppol.sbdh.PeppolSBDHDataReader;
import com.helger.peppolid.factory.PeppolIdentifierFactory;
import com.helger.phase4.CAS4;
import com.helger.phase4.attachment.WSS4JAttachment;
import com.helger.phase4.ebms3header.Ebms3Property;
import com.helger.phase4.ebms3header.Ebms3SignalMessage;
import com.helger.phase4.ebms3header.Ebms3UserMessage;
import com.helger.phase4.error.AS4ErrorList;
import com.helger.phase4.incoming.IAS4IncomingMessageMetadata;
import com.helger.phase4.incoming.IAS4IncomingMessageState;
import com.helger.phase4.incoming.spi.AS4MessageProcessorResult;
import com.helger.phase4.incoming.spi.AS4SignalMessageProcessorResult;
import com.helger.phase4.incoming.spi.IAS4IncomingMessageProcessorSPI;
import com.helger.phase4.model.error.EEbmsError;
import com.helger.phase4.model.pmode.IPMode;
import com.helger.security.certificate.ECertificateCheckResult;

/**
 * phase4's incoming SPI for one AS4 request: by the time it runs, phase4 has decrypted the message
 * and verified its WS-Security signature against the Peppol AP CA. It checks what the Peppol AS4
 * profile adds (the signing certificate valid and not revoked, one SBDH payload with COUNTRY_C1,
 * originalSender/finalRecipient equal to the SBDH's sender/receiver), then hands the document to the
 * gateway and turns the gateway's verdict into a receipt, an ebMS error, or a "retry later".
 *
 * One instance per request (see {@link InboundEndpoint}): {@link #mustRetryLater()} is that
 * request's outcome, which phase4's answer cannot express (it has no retriable ebMS error).
 */
final class InboundUserMessageProcessor implements IAS4IncomingMessageProcessorSPI
{
  private static final Logger LOG = LoggerFactory.getLogger (InboundUserMessageProcessor.class);
  /** Peppol AS4 profile: the error detail for a receiver this AP does not serve (with EBMS:0004). */
  static final String NOT_SERVICED = "PEPPOL:NOT_SERVICED";

  private final ApCredentials credentials;
  private final InboundCallback callback;
  private final DeliveredMessageIds delivered;
  private boolean retryLater;

  InboundUserMessageProcessor (final ApCredentials credentials, final InboundCallback callback, final DeliveredMessageIds delivered)
  {
    this.credentials = credentials;
    this.callback = callback;
    this.delivered = delivered;
  }

  boolean mustRetryLater ()
  {
    return retryLater;
  }

  public AS4MessageProcessorResult processAS4UserMessage (final IAS4IncomingMessageMetadata metadata,
                                                          final HttpHeaderMap headers,
                                                          final Ebms3UserMessage userMessage,
                                                          final IPMode pmode,
                                                          final Node soapBodyPayload,
                                                          final ICommonsList <WSS4JAttachment> attachments,
                                                          final IAS4IncomingMessageState state,
                                                          final AS4ErrorList errors)
  {
    final String messageId = userMessage.getMessageInfo ().getMessageId ();
    final Locale locale = state.getLocale ();
    if (!state.isSoapDecrypted () || !state.isSoapSignatureChecked ())
      return refuse (errors, EEbmsError.EBMS_FAILED_AUTHENTICATION, messageId, locale, "A Peppol message must be signed and encrypted");

    final X509Certificate senderCertificate = state.getSigningCertificate ();
    final ECertificateCheckResult check = credentials.apCaChecker ().checkCertificate (senderCertificate, OffsetDateTime.now ());
    if (check.isInvalid ())
      return refuse (errors, EEbmsError.EBMS_FAILED_AUTHENTICATION, messageId, locale, "The signing certificate is not a valid Peppol AP certificate: " + check.getReason ());

    if (attachments == null || attachments.size () != 1)
      return refuse (errors, EEbmsError.EBMS_OTHER, messageId, locale, "A Peppol message carries exactly one payload, this one " + (attachments == null ? 0 : attachments.size ()));
    final PeppolSBDHData sbdh;
    final Element businessDocument;
    try (InputStream payload = attachments.getFirstOrNull ().getSourceStream ())
    {
      final Document envelope = parseKeepingWhitespace (payload.readAllBytes ());
      // COUNTRY_C1 is mandatory since 2024 (Peppol Business Message Envelope 2.0).
      sbdh = new PeppolSBDHDataReader (PeppolIdentifierFactory.INSTANCE).setCheckForCountryC1 (true).extractData (envelope);
      businessDocument = lastChildElement (envelope.getDocumentElement ());
    }
    catch (final Exception ex)
    {
      return refuse (errors, EEbmsError.EBMS_OTHER, messageId, locale, "The payload is not a valid Peppol SBDH: " + ex.getMessage ());
    }

    final String addressing = addressingMismatch (userMessage, sbdh);
    if (addressing != null)
      return refuse (errors, EEbmsError.EBMS_OTHER, messageId, locale, addressing);

    if (delivered.wasHandedOver (messageId))
    {
      // A retry of a message we already gave to the gateway (the sender missed our receipt): receipt again.
      LOG.info ("AS4 message {} is a duplicate: answered with a receipt, not handed over again", messageId);
      return AS4MessageProcessorResult.createSuccess ();
    }

    final InboundCallback.Verdict verdict = callback.handOver (receivedDocument (userMessage, sbdh, businessDocument, senderCertificate));
    switch (verdict)
    {
      case TAKEN:
        delivered.rememberHandedOver (messageId, state.getProfileID (), pmode == null ? null : pmode.getID ());
        LOG.info ("AS4 message {} for {} handed over", messageId, sbdh.getReceiverURIEncoded ());
        return AS4MessageProcessorResult.createSuccess ();
      case NOT_SERVICED:
        errors.add (EEbmsError.EBMS_OTHER.errorBuilder (locale)
                                         .refToMessageInError (messageId)
                                         .description ("The receiver " + sbdh.getReceiverURIEncoded () + " is not served by this access point", locale)
                                         .errorDetail (NOT_SERVICED)
                                         .build ());
        return AS4MessageProcessorResult.createFailure ();
      default:
        retryLater = true;
        return refuse (errors, EEbmsError.EBMS_OTHER, messageId, locale, "The document could not be handed over; retry later");
    }
  }

  public AS4SignalMessageProcessorResult processAS4SignalMessage (final IAS4IncomingMessageMetadata metadata,
                                                                  final HttpHeaderMap headers,
                                                                  final Ebms3SignalMessage signalMessage,
                                                                  final IPMode pmode,
                                                                  final IAS4IncomingMessageState state,
                                                                  final AS4ErrorList errors)
  {
    // Receipts and errors come back synchronously on our own sends; nothing arrives here in Peppol.
    return AS4SignalMessageProcessorResult.createSuccess ();
  }

  public void processAS4ResponseMessage (final IAS4IncomingMessageMetadata metadata,
                                         final IAS4IncomingMessageState state,
                                         final String responseMessageId,
                                         final byte [] responseBytes,
                                         final boolean responsePayloadIsAvailable,
                                         final AS4ErrorList errors)
  {}

  /** The callback body of docs/peppol-as4.md, "Inbound". */
  private static Map <String, Object> receivedDocument (final Ebms3UserMessage userMessage,
                                                       final PeppolSBDHData sbdh,
                                                       final Element businessDocument,
                                                       final X509Certificate senderCertificate)
  {
    final Map <String, Object> document = new LinkedHashMap <> ();
    document.put ("messageId", userMessage.getMessageInfo ().getMessageId ());
    document.put ("conversationId", userMessage.getCollaborationInfo ().getConversationId ());
    document.put ("senderParticipantId", sbdh.getSenderURIEncoded ());
    document.put ("receiverParticipantId", sbdh.getReceiverURIEncoded ());
    document.put ("documentTypeId", sbdh.getDocumentTypeURIEncoded ());
    document.put ("processId", sbdh.getProcessURIEncoded ());
    document.put ("countryC1", sbdh.getCountryC1 ());
    document.put ("instanceIdentifier", sbdh.getInstanceIdentifier ());
    document.put ("payload", xmlText (businessDocument));
    document.put ("receivedAt", Instant.now ().toString ());
    document.put ("senderCertificate", pem (senderCertificate));
    // The Business Message Envelope's MLS extension: where and when the sender wants its MLS.
    if (sbdh.hasMLSToValue ())
      document.put ("mlsTo", sbdh.getMLSToValue ());
    if (sbdh.hasMLSType ())
      document.put ("mlsType", sbdh.getMLSType ().getID ());
    return document;
  }

  /** Peppol AS4 profile: originalSender and finalRecipient must name the SBDH's sender and receiver. */
  private static String addressingMismatch (final Ebms3UserMessage userMessage, final PeppolSBDHData sbdh)
  {
    final Ebms3Property originalSender = property (userMessage, CAS4.ORIGINAL_SENDER);
    if (originalSender == null || !sbdh.getSenderValue ().equals (originalSender.getValue ()) || !sbdh.getSenderScheme ().equals (originalSender.getType ()))
      return "The AS4 originalSender does not name the SBDH sender " + sbdh.getSenderURIEncoded ();
    final Ebms3Property finalRecipient = property (userMessage, CAS4.FINAL_RECIPIENT);
    if (finalRecipient == null || !sbdh.getReceiverValue ().equals (finalRecipient.getValue ()) || !sbdh.getReceiverScheme ().equals (finalRecipient.getType ()))
      return "The AS4 finalRecipient does not name the SBDH receiver " + sbdh.getReceiverURIEncoded ();
    return null;
  }

  private static Ebms3Property property (final Ebms3UserMessage userMessage, final String name)
  {
    if (userMessage.getMessageProperties () == null)
      return null;
    for (final Ebms3Property property : userMessage.getMessageProperties ().getProperty ())
      if (name.equals (property.getName ()))
        return property;
    return null;
  }

  private static AS4MessageProcessorResult refuse (final AS4ErrorList errors,
                                                   final EEbmsError error,
                                                   final String messageId,
                                                   final Locale locale,
                                                   final String detail)
  {
    LOG.warn ("AS4 message {} refused: {}", messageId, detail);
    errors.add (error.errorBuilder (locale).refToMessageInError (messageId).errorDetail (detail).build ());
    return AS4MessageProcessorResult.createFailure ();
  }

  /**
   * The SBDH as sent, whitespace and all. The business document is taken from this parse, not from
   * the SBDH reader's: the reader binds the envelope through JAXB, whose DOM of the payload drops the
   * whitespace before each start tag, so the receiver would get other bytes than the sender wrote
   * (harmless to the UBL, fatal to a signature inside it). No DTD: an AS4 payload has none to offer.
   */
  private static Document parseKeepingWhitespace (final byte [] xml) throws Exception
  {
    final DocumentBuilderFactory factory = DocumentBuilderFactory.newDefaultInstance ();
    factory.setNamespaceAware (true);
    factory.setFeature ("http://apache.org/xml/features/disallow-doctype-decl", true);
    factory.setXIncludeAware (false);
    factory.setExpandEntityReferences (false);
    return factory.newDocumentBuilder ().parse (new ByteArrayInputStream (xml));
  }

  /** The SBDH's business message: the element after the StandardBusinessDocumentHeader, its last child element. */
  private static Element lastChildElement (final Element parent)
  {
    for (Node node = parent.getLastChild (); node != null; node = node.getPreviousSibling ())
      if (node instanceof Element element)
        return element;
    throw new IllegalStateException ("The SBDH holds no business message");
  }

  /**
   * The business document as XML text with its own prefixes and whitespace: the JDK's serializer
   * writes the DOM as it is (ph-xml's writer would rename every namespace to ns0, ns1, and indent).
   */
  private static String xmlText (final Element document)
  {
    try
    {
      final Transformer transformer = TransformerFactory.newDefaultInstance ().newTransformer ();
      transformer.setOutputProperty (OutputKeys.ENCODING, "UTF-8");
      final StringWriter out = new StringWriter ();
      transformer.transform (new DOMSource (document), new StreamResult (out));
      return out.toString ();
    }
    catch (final TransformerException ex)
    {
      throw new IllegalStateException ("The received business document cannot be written as XML", ex);
    }
  }

  private static String pem (final X509Certificate certificate)
  {
    try
    {
      final String base64 = Base64.getMimeEncoder (64, "\n".getBytes ()).encodeToString (certificate.getEncoded ());
      return "-----BEGIN CERTIFICATE-----\n" + base64 + "\n-----END CERTIFICATE-----\n";
    }
    catch (final Exception ex)
    {
      throw new IllegalStateException ("The verified signing certificate cannot be encoded", ex);
    }
  }
}

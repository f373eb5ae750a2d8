package io.einvoice.as4;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.helger.base.io.iface.IHasInputStream;
import com.helger.base.io.stream.StreamHelper;
import com.helger.collection.commons.CommonsArrayList;
import com.helger.http.header.HttpHeaderMap;
import com.helger.mime.IMimeType;
import com.helger.phase4.attachment.IAS4IncomingAttachmentFactory;
import com.helger.phase4.crypto.AS4SigningParams;
import com.helger.phase4.incoming.AS4IncomingMessageMetadata;
import com.helger.phase4.incoming.AS4IncomingProfileSelectorConstant;
import com.helger.phase4.incoming.AS4IncomingReceiverConfiguration;
import com.helger.phase4.incoming.AS4RequestHandler;
import com.helger.phase4.incoming.IAS4ResponseAbstraction;
import com.helger.phase4.incoming.crypto.AS4IncomingSecurityConfiguration;
import com.helger.phase4.incoming.spi.IAS4IncomingMessageProcessorSPI;
import com.helger.phase4.model.pmode.resolve.AS4DefaultPModeResolver;
import com.helger.phase4.profile.peppol.AS4PeppolProfileRegistarSPI;
import com.helger.phase4.profile.peppol.PeppolPMode;
import com.helger.phase4.util.Phase4Exception;
import com.helger.web.scope.mgr.WebScoped;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

/**
 * The AS4 endpoint other access points post to (AS4_PUBLIC_URL, behind the TLS front of the
 * installation). Each request runs through phase4's AS4RequestHandler, configured the way
 * phase4's own servlet configures it, with this engine's key, the Peppol profile and one
 * {@link InboundUserMessageProcessor} of its own.
 */
final class InboundEndpoint implements HttpHandler
{
  private static final Logger LOG = LoggerFactory.getLogger (InboundEndpoint.class);
  private static final String PROFILE = AS4PeppolProfileRegistarSPI.AS4_PROFILE_ID;

  private final EngineSettings settings;
  private final ApCredentials credentials;
  private final InboundCallback callback;
  private final DeliveredMessageIds delivered;

  InboundEndpoint (final EngineSettings settings, final ApCredentials credentials, final DeliveredMessageIds delivered)
  {
    this.settings = settings;
    this.credentials = credentials;
    this.callback = new InboundCallback (settings.inboundCallbackUrl, settings.engineSecret);
    this.delivered = delivered;
  }

  @Override
  public void handle (final HttpExchange exchange) throws IOException
  {
    try (exchange)
    {
      if (!"POST".equals (exchange.getRequestMethod ()))
      {
        plain (exchange, 405, "AS4 messages are POSTed");
        return;
      }
      final HttpHeaderMap headers = new HttpHeaderMap ();
      exchange.getRequestHeaders ().forEach ( (name, values) -> values.forEach (value -> headers.addHeader (name, value)));
      final InboundUserMessageProcessor processor = new InboundUserMessageProcessor (credentials, callback, delivered);
      final CapturedResponse response = new CapturedResponse ();
      final AS4IncomingMessageMetadata metadata = AS4IncomingMessageMetadata.createForRequest ()
                                                                            .setRemoteAddr (exchange.getRemoteAddress ().getAddress ().getHostAddress ())
                                                                            .setRemotePort (exchange.getRemoteAddress ().getPort ())
                                                                            .setHttpHeaders (headers);
      // A request scope, as a servlet request would have: some of phase4's helpers look for one.
      try (WebScoped scope = new WebScoped (); AS4RequestHandler handler = new AS4RequestHandler (metadata))
      {
        handler.setCryptoFactory (credentials.cryptoFactory ());
        handler.setPModeResolver (new AS4DefaultPModeResolver (PROFILE));
        handler.setIncomingProfileSelector (new AS4IncomingProfileSelectorConstant (PROFILE, true));
        handler.setIncomingAttachmentFactory (IAS4IncomingAttachmentFactory.DEFAULT_INSTANCE);
        // Peppol AP certificates are checked by issuer (the AP CA) and by InboundUserMessageProcessor;
        // phase4's Peppol subject pattern only tells WSS4J that this is deliberate.
        handler.setIncomingSecurityConfiguration (AS4IncomingSecurityConfiguration.createDefaultInstance ()
                                                                                   .setSigningParams (new AS4SigningParams ().setSubjectCertConstraints (PeppolPMode.CERTIFICATE_SUBJECT_CONSTRAINT_PATTERN)));
        handler.setIncomingReceiverConfiguration (new AS4IncomingReceiverConfiguration ().setReceiverEndpointAddress (settings.publicUrl.toString ()));
        handler.setProcessorSupplier ( () -> new CommonsArrayList <IAS4IncomingMessageProcessorSPI> (processor));
        handler.handleRequest (exchange.getRequestBody (), headers, response);
      }
      catch (final Phase4Exception ex)
      {
        LOG.warn ("Unreadable AS4 request from {}: {}", exchange.getRemoteAddress (), ex.getMessage ());
        plain (exchange, 400, "Bad Request: " + ex.getMessage ());
        return;
      }
      catch (final Exception ex)
      {
        LOG.error ("AS4 request from {} failed", exchange.getRemoteAddress (), ex);
        plain (exchange, 500, "Internal error processing AS4 request");
        return;
      }

      if (processor.mustRetryLater ())
      {
        // A transport-level failure is the one answer every AS4 sender retries; an ebMS error
        // would be final for most of them (Peppol AS4 defines no retriable error).
        plain (exchange, 503, "The document could not be handed over; retry later");
        return;
      }
      response.writeTo (exchange);
    }
  }

  private static void plain (final HttpExchange exchange, final int status, final String text) throws IOException
  {
    HttpAnswer.send (exchange, status, "text/plain; charset=utf-8", text.getBytes (StandardCharsets.UTF_8));
  }

  /** What phase4 answers (receipt or ebMS error), kept until we know it is the answer to send. */
  private static final class CapturedResponse implements IAS4ResponseAbstraction
  {
    private int status = 200;
    private IMimeType mimeType;
    private Charset charset;
    private byte [] body;
    private final HttpHeaderMap headers = new HttpHeaderMap ();

    public void setContent (final byte [] bytes, final Charset charset)
    {
      this.body = bytes;
      this.charset = charset;
    }

    public void setContent (final HttpHeaderMap headerMap, final IHasInputStream content)
    {
      headers.addAllHeaders (headerMap);
      this.body = StreamHelper.getAllBytes (content);
    }

    public void setMimeType (final IMimeType mimeType)
    {
      this.mimeType = mimeType;
    }

    public void setStatus (final int status)
    {
      this.status = status;
    }

    void writeTo (final HttpExchange exchange) throws IOException
    {
      headers.forEachSingleHeader ( (name, value) -> exchange.getResponseHeaders ().add (name, value), false);
      final String type = mimeType == null ? null : mimeType.getAsString ();
      final String contentType = type == null || charset == null || type.contains ("charset") ? type : type + "; charset=" + charset.name ();
      HttpAnswer.send (exchange, status, contentType, status == 204 ? null : body);
    }
  }
}

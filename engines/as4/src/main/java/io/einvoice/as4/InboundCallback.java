package io.einvoice.as4;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.helger.json.IJsonObject;

/**
 * Hands a received document to the gateway (`POST AS4_INBOUND_CALLBACK_URL`, docs/peppol-as4.md
 * "Inbound") and reads its verdict, which decides what the engine answers the sending AP.
 */
final class InboundCallback
{
  /** What the gateway said, in the terms of the AS4 answer it leads to. */
  enum Verdict
  {
    /** 200 accepted or duplicate, or 400 (invalid payload: an MLS RE follows): AS4 receipt. */
    TAKEN,
    /** 404: the receiver is not hosted here: ebMS error EBMS:0004 with PEPPOL:NOT_SERVICED. */
    NOT_SERVICED,
    /** 5xx, no answer, or an answer the contract does not know: the sender must retry. */
    RETRY_LATER
  }

  private static final Logger LOG = LoggerFactory.getLogger (InboundCallback.class);
  private static final Duration TIMEOUT = Duration.ofSeconds (30);

  private final URI url;
  private final String secret;
  // HTTP/1.1: the JDK client would otherwise offer an h2c upgrade on every plain-http call.
  private final HttpClient http = HttpClient.newBuilder ()
                                            .version (HttpClient.Version.HTTP_1_1)
                                            .connectTimeout (Duration.ofSeconds (5))
                                            .build ();

  InboundCallback (final URI url, final String secret)
  {
    this.url = url;
    this.secret = secret;
  }

  Verdict handOver (final Map <String, ?> received)
  {
    final String messageId = String.valueOf (received.get ("messageId"));
    final HttpResponse <String> response;
    try
    {
      final HttpRequest request = HttpRequest.newBuilder (url)
                                             .timeout (TIMEOUT)
                                             .header ("content-type", "application/json")
                                             .header ("x-engine-secret", secret)
                                             .POST (HttpRequest.BodyPublishers.ofString (JsonText.write (received), StandardCharsets.UTF_8))
                                             .build ();
      response = http.send (request, HttpResponse.BodyHandlers.ofString (StandardCharsets.UTF_8));
    }
    catch (final InterruptedException ex)
    {
      Thread.currentThread ().interrupt ();
      return Verdict.RETRY_LATER;
    }
    catch (final Exception ex)
    {
      LOG.warn ("The inbound callback for {} could not be reached: {}", messageId, ex.toString ());
      return Verdict.RETRY_LATER;
    }

    final int status = response.statusCode ();
    final IJsonObject body = JsonText.parseObject (response.body ());
    if (status == 200)
    {
      final String answer = JsonText.field (body, "status");
      if ("accepted".equals (answer) || "duplicate".equals (answer))
        return Verdict.TAKEN;
    }
    else
      if (status == 400)
      {
        LOG.info ("The gateway took {} but found it invalid ({}): it answers with an MLS", messageId, JsonText.field (body, "code"));
        return Verdict.TAKEN;
      }
      else
        if (status == 404)
          return Verdict.NOT_SERVICED;
    LOG.warn ("The inbound callback answered {} for {}: the sender is told to retry", status, messageId);
    return Verdict.RETRY_LATER;
  }
}

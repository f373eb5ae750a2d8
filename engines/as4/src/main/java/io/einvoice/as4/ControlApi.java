package io.einvoice.as4;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.helger.json.IJsonObject;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

/**
 * The loopback control API of docs/peppol-as4.md: `POST /outbound` (send one document, answer
 * with the receipt or the failure) and `GET /health`. Every call must carry x-engine-secret.
 */
final class ControlApi implements HttpHandler
{
  private static final Logger LOG = LoggerFactory.getLogger (ControlApi.class);

  private final EngineSettings settings;
  private final ApCredentials credentials;
  private final OutboundSender sender;
  private final byte [] secret;

  ControlApi (final EngineSettings settings, final ApCredentials credentials, final OutboundSender sender)
  {
    this.settings = settings;
    this.credentials = credentials;
    this.sender = sender;
    this.secret = settings.engineSecret.getBytes (StandardCharsets.UTF_8);
  }

  @Override
  public void handle (final HttpExchange exchange) throws IOException
  {
    try (exchange)
    {
      final String given = exchange.getRequestHeaders ().getFirst ("x-engine-secret");
      // Constant-time comparison: the secret is the only thing between a local process and sending.
      if (given == null || !MessageDigest.isEqual (secret, given.getBytes (StandardCharsets.UTF_8)))
      {
        json (exchange, 401, failure ("ENGINE.UNAUTHORIZED", "x-engine-secret is missing or wrong", false));
        return;
      }
      final String route = exchange.getRequestMethod () + " " + exchange.getRequestURI ().getPath ();
      switch (route)
      {
        case "GET /health":
          json (exchange, 200, health ());
          break;
        case "POST /outbound":
          outbound (exchange);
          break;
        default:
          json (exchange, 404, failure ("ENGINE.NOT_FOUND", "No route " + route, false));
      }
    }
  }

  private void outbound (final HttpExchange exchange) throws IOException
  {
    final IJsonObject body = JsonText.parseObject (new String (exchange.getRequestBody ().readAllBytes (), StandardCharsets.UTF_8));
    if (body == null)
    {
      json (exchange, 400, failure (OutboundFailure.Code.BAD_REQUEST.wire, "The body is not a JSON object", false));
      return;
    }
    final OutboundRequest request = new OutboundRequest (JsonText.field (body, "messageId"),
                                                         JsonText.field (body, "instanceIdentifier"),
                                                         JsonText.field (body, "senderParticipantId"),
                                                         JsonText.field (body, "receiverParticipantId"),
                                                         JsonText.field (body, "documentTypeId"),
                                                         JsonText.field (body, "processId"),
                                                         JsonText.field (body, "countryC1"),
                                                         JsonText.field (body, "payload"),
                                                         JsonText.field (body, "mlsTo"),
                                                         JsonText.field (body, "mlsType"));
    final long started = System.nanoTime ();
    try
    {
      final OutboundReceipt receipt = sender.send (request);
      LOG.info ("Sent {} to {} in {} ms", receipt.messageId (), receipt.receiverEndpoint (), (System.nanoTime () - started) / 1_000_000);
      final Map <String, Object> answer = new LinkedHashMap <> ();
      answer.put ("status", "sent");
      answer.put ("messageId", receipt.messageId ());
      final Map <String, Object> signal = new LinkedHashMap <> ();
      signal.put ("refToMessageId", receipt.refToMessageId ());
      signal.put ("timestamp", receipt.timestamp ());
      answer.put ("receipt", signal);
      answer.put ("receiverEndpoint", receipt.receiverEndpoint ());
      answer.put ("transportProfile", receipt.transportProfile ());
      answer.put ("receiverSeatId", receipt.receiverSeatId ());
      json (exchange, 200, answer);
    }
    catch (final OutboundFailure ex)
    {
      LOG.warn ("Not sent {}: {} {}", request.messageId (), ex.code ().wire, ex.getMessage ());
      json (exchange, ex.code ().httpStatus, failure (ex.code ().wire, ex.getMessage (), ex.code ().retriable));
    }
    catch (final RuntimeException ex)
    {
      LOG.error ("Sending {} failed unexpectedly", request.messageId (), ex);
      json (exchange, 503, failure (OutboundFailure.Code.ACCESS_POINT_UNAVAILABLE.wire, "The engine failed: " + ex, true));
    }
  }

  private Map <String, Object> health ()
  {
    final Map <String, Object> certificate = new LinkedHashMap <> ();
    certificate.put ("subject", ApCredentials.subjectOf (credentials.certificate ()));
    certificate.put ("notAfter", credentials.certificate ().getNotAfter ().toInstant ().toString ());
    final Map <String, Object> health = new LinkedHashMap <> ();
    health.put ("status", "ok");
    health.put ("apCertificate", certificate);
    health.put ("mode", settings.modeDescription ());
    return health;
  }

  private static Map <String, Object> failure (final String code, final String message, final boolean retriable)
  {
    final Map <String, Object> failure = new LinkedHashMap <> ();
    failure.put ("status", "failed");
    failure.put ("code", code);
    failure.put ("message", message);
    failure.put ("retriable", retriable);
    return failure;
  }

  private static void json (final HttpExchange exchange, final int status, final Map <String, ?> body) throws IOException
  {
    HttpAnswer.send (exchange, status, "application/json", JsonText.write (body).getBytes (StandardCharsets.UTF_8));
  }
}

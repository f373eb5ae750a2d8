package io.einvoice.as4;

import java.io.IOException;
import java.io.OutputStream;

import com.sun.net.httpserver.HttpExchange;

/**
 * Writes one whole answer on the JDK's HTTP server, which needs the body's length before the body:
 * the control API's JSON, the AS4 endpoint's plain-text refusals and phase4's receipt or ebMS error
 * all go out this one way.
 */
final class HttpAnswer
{
  private HttpAnswer ()
  {}

  /** The status, the content type (none when null) and the body; a null body sends none (length -1). */
  static void send (final HttpExchange exchange, final int status, final String contentType, final byte [] body) throws IOException
  {
    if (contentType != null)
      exchange.getResponseHeaders ().set ("content-type", contentType);
    exchange.sendResponseHeaders (status, body == null ? -1 : body.length);
    if (body == null)
      return;
    try (OutputStream out = exchange.getResponseBody ())
    {
      out.write (body);
    }
  }
}

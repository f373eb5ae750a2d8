package io.einvoice.as4;

/**
 * Why a document was not sent, with the stable code of docs/peppol-as4.md ("POST /outbound") and
 * whether the same call may succeed later (the delivery worker retries with the same MessageId).
 */
public final class OutboundFailure extends Exception
{
  public enum Code
  {
    /** No SMP registration in the SML, or no AS4 endpoint for the document type and process. */
    RECEIVER_NOT_FOUND ("PEPPOL.RECEIVER_NOT_FOUND", false, 422),
    SMP_SIGNATURE_INVALID ("PEPPOL.SMP_SIGNATURE_INVALID", false, 422),
    /** The receiving AP answered an ebMS error. */
    AS4_REFUSED ("PEPPOL.AS4_REFUSED", false, 422),
    /** The receiver's certificate is not from the Peppol AP CA, expired or revoked. */
    CERTIFICATE_INVALID ("PEPPOL.CERTIFICATE_INVALID", false, 422),
    /** No answer (network, SMP or receiving AP down, a "retry later"): safe to retry, duplicates are detected. */
    ACCESS_POINT_UNAVAILABLE ("PEPPOL.ACCESS_POINT_UNAVAILABLE", true, 503),
    /** The call itself is wrong (an identifier that does not parse, a payload that is not XML). */
    BAD_REQUEST ("ENGINE.BAD_REQUEST", false, 400);

    public final String wire;
    public final boolean retriable;
    public final int httpStatus;

    Code (final String wire, final boolean retriable, final int httpStatus)
    {
      this.wire = wire;
      this.retriable = retriable;
      this.httpStatus = httpStatus;
    }
  }

  private final Code code;

  public OutboundFailure (final Code code, final String message)
  {
    super (message);
    this.code = code;
  }

  public OutboundFailure (final Code code, final String message, final Throwable cause)
  {
    super (message, cause);
    this.code = code;
  }

  public Code code ()
  {
    return code;
  }
}

package io.einvoice.as4;

/**
 * The receiving AP's signed AS4 receipt for a sent document.
 *
 * @param refToMessageId the MessageId the receipt acknowledges
 * @param timestamp the receipt's own timestamp, as the receiver wrote it
 * @param receiverEndpoint the AS4 URL the document went to (from the SMP)
 * @param transportProfile the SMP endpoint's transport profile, for Peppol Reporting
 * @param receiverSeatId the receiving AP's seat id (the CN of the SMP endpoint's certificate), for Peppol Reporting
 */
public record OutboundReceipt (String messageId,
                               String refToMessageId,
                               String timestamp,
                               String receiverEndpoint,
                               String transportProfile,
                               String receiverSeatId)
{}

package io.einvoice.as4;

/**
 * The receiving AP's signed AS4 receipt for a sent document.
 *
 * @param refToMessageId the MessageId the receipt acknowledges
 * @param timestamp the receipt's own timestamp, as the receiver wrote it
 * @param receiverEndpoint the AS4 URL the document went to (from the SMP)
 */
public record OutboundReceipt (String messageId, String refToMessageId, String timestamp, String receiverEndpoint)
{}

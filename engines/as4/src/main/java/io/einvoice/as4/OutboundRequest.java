package io.einvoice.as4;

/**
 * One `POST /outbound` body (docs/peppol-as4.md). Identifiers are in their URI-encoded form
 * (`iso6523-actorid-upis::0208:0123456789`).
 *
 * @param messageId the AS4 MessageId, the same on every retry of one document
 * @param instanceIdentifier the SBDH InstanceIdentifier, or null: one derived from the MessageId
 * @param countryC1 the sender's country (ISO 3166 alpha-2) for the SBDH's COUNTRY_C1 scope
 * @param payload the business document (UBL) as XML text
 * @param mlsTo the SBDH's MLS_TO scope (`0242:000123`), or null: the MLS goes to the sending AP's SP
 * @param mlsType the SBDH's MLS_TYPE scope (`ALWAYS_SEND`, `FAILURE_ONLY`), or null
 */
public record OutboundRequest (String messageId,
                               String instanceIdentifier,
                               String senderParticipantId,
                               String receiverParticipantId,
                               String documentTypeId,
                               String processId,
                               String countryC1,
                               String payload,
                               String mlsTo,
                               String mlsType)
{}

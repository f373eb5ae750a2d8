package io.einvoice.as4;

import java.time.LocalDateTime;

import com.helger.peppol.sml.ESML;
import com.helger.peppol.smp.ESMPTransportProfile;
import com.helger.peppolid.IDocumentTypeIdentifier;
import com.helger.peppolid.IParticipantIdentifier;
import com.helger.peppolid.IProcessIdentifier;
import com.helger.smpclient.exception.SMPClientBadResponseException;
import com.helger.smpclient.exception.SMPClientException;
import com.helger.smpclient.peppol.SMPClientReadOnly;
import com.helger.smpclient.url.PeppolNaptrURLProvider;
import com.helger.smpclient.url.SMPDNSResolutionException;
import com.helger.xsds.peppol.smp1.EndpointType;
import com.helger.xsds.peppol.smp1.SignedServiceMetadataType;

/**
 * Finds a receiver's AS4 endpoint: its SMP through the SML (Peppol's NAPTR lookup by DNS) or the
 * fixed SMP of the settings, then the signed ServiceMetadata for the document type, whose XMLDSig
 * signature peppol-commons' SMP client verifies against the SMP CA truststore.
 *
 * Discovery is done here rather than inside the sender builder so that each way it can fail gets
 * its own contract code (not found, bad signature, SMP unreachable).
 */
final class ReceiverDiscovery
{
  private final EngineSettings settings;
  private final ApCredentials credentials;

  ReceiverDiscovery (final EngineSettings settings, final ApCredentials credentials)
  {
    this.settings = settings;
    this.credentials = credentials;
  }

  EndpointType endpointOf (final IParticipantIdentifier receiver,
                           final IDocumentTypeIdentifier documentType,
                           final IProcessIdentifier process) throws OutboundFailure
  {
    final SMPClientReadOnly smp = smpOf (receiver);
    smp.setTrustStore (credentials.smpTrustStore ());
    smp.setVerifySignature (true);

    final SignedServiceMetadataType metadata;
    try
    {
      metadata = smp.getSchemeSpecificServiceMetadataOrNull (receiver, documentType);
    }
    catch (final SMPClientBadResponseException ex)
    {
      // The SMP client reports a failed signature check as a bad response without a type of its
      // own; its messages name the signature ("Signature returned from SMP server was not valid",
      // "Error in validating signature returned from SMP server").
      if (String.valueOf (ex.getMessage ()).contains ("ignature"))
        throw new OutboundFailure (OutboundFailure.Code.SMP_SIGNATURE_INVALID,
                                   "The SMP answer for " + receiver.getURIEncoded () + " is not signed by a trusted SMP certificate: " + ex.getMessage (),
                                   ex);
      throw new OutboundFailure (OutboundFailure.Code.ACCESS_POINT_UNAVAILABLE, "The SMP answered something unreadable: " + ex.getMessage (), ex);
    }
    catch (final SMPClientException ex)
    {
      throw new OutboundFailure (OutboundFailure.Code.ACCESS_POINT_UNAVAILABLE,
                                 "The SMP " + smp.getSMPHostURI () + " could not be asked: " + ex.getMessage (),
                                 ex);
    }
    if (metadata == null)
      throw new OutboundFailure (OutboundFailure.Code.RECEIVER_NOT_FOUND,
                                 receiver.getURIEncoded () + " has no SMP registration for " + documentType.getURIEncoded ());

    final EndpointType endpoint = SMPClientReadOnly.getEndpointAt (metadata.getServiceMetadata (),
                                                                   process,
                                                                   ESMPTransportProfile.TRANSPORT_PROFILE_PEPPOL_AS4_V2,
                                                                   LocalDateTime.now ());
    if (endpoint == null)
      throw new OutboundFailure (OutboundFailure.Code.RECEIVER_NOT_FOUND,
                                 receiver.getURIEncoded () + " has no active Peppol AS4 v2 endpoint for process " + process.getURIEncoded ());
    return endpoint;
  }

  private SMPClientReadOnly smpOf (final IParticipantIdentifier receiver) throws OutboundFailure
  {
    if (settings.discovery == EngineSettings.Discovery.FIXED_SMP)
      return new SMPClientReadOnly (settings.smpUrl);
    final ESML sml = settings.discovery == EngineSettings.Discovery.SML_PRODUCTION ? ESML.PEPPOL_PRODUCTION : ESML.PEPPOL_TEST;
    try
    {
      return new SMPClientReadOnly (PeppolNaptrURLProvider.INSTANCE, receiver, sml);
    }
    catch (final SMPDNSResolutionException ex)
    {
      // No NAPTR record: the participant is not registered in this SML.
      throw new OutboundFailure (OutboundFailure.Code.RECEIVER_NOT_FOUND,
                                 receiver.getURIEncoded () + " is not registered in the SML " + sml.getDisplayName () + ": " + ex.getMessage (),
                                 ex);
    }
  }
}

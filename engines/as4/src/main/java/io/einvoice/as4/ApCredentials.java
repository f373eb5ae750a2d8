package io.einvoice.as4;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import com.helger.base.state.ETriState;
import com.helger.peppolid.peppol.PeppolIdentifierHelper;
import com.helger.phase4.crypto.AS4CryptoFactoryInMemoryKeyStore;
import com.helger.phase4.crypto.IAS4CryptoFactory;
import com.helger.security.certificate.CertificateHelper;
import com.helger.security.certificate.ECertificateCheckResult;
import com.helger.security.certificate.TrustedCAChecker;
import com.helger.security.revocation.CertificateRevocationCheckerDefaults;
import com.helger.security.revocation.ERevocationCheckMode;

/**
 * This access point's key and certificate (PKCS#12), the Peppol AP CA it trusts, and the SMP CA
 * whose signatures it accepts on SMP answers. Loading checks everything an AS4 exchange would
 * later fail on, so that a wrong file stops the engine at start with a sentence instead of a
 * WS-Security fault on the first document.
 */
public final class ApCredentials
{
  private final IAS4CryptoFactory cryptoFactory;
  private final X509Certificate certificate;
  private final KeyStore smpTrustStore;
  private final TrustedCAChecker apCaChecker;

  private ApCredentials (final KeyStore keyStore,
                         final String keyAlias,
                         final char [] keyPassword,
                         final X509Certificate certificate,
                         final KeyStore trustStore,
                         final KeyStore smpTrustStore,
                         final TrustedCAChecker apCaChecker)
  {
    // One factory for the process, as phase4's servlet shares its default one: it caches the WSS4J crypto.
    this.cryptoFactory = new AS4CryptoFactoryInMemoryKeyStore (keyStore, keyAlias, keyPassword, trustStore);
    this.certificate = certificate;
    this.smpTrustStore = smpTrustStore;
    this.apCaChecker = apCaChecker;
  }

  /** Loads and checks the three stores named by the settings. */
  public static ApCredentials load (final EngineSettings settings) throws StartupRefusedException
  {
    final KeyStore keyStore = pkcs12 (settings.apKeystore, settings.apKeystorePassword, "PEPPOL_AP_KEYSTORE");
    final String alias = keyAliasOf (keyStore, settings.apKeyAlias);
    final PrivateKey key;
    final X509Certificate certificate;
    try
    {
      key = (PrivateKey) keyStore.getKey (alias, settings.apKeystorePassword);
      certificate = (X509Certificate) keyStore.getCertificate (alias);
    }
    catch (final Exception ex)
    {
      throw new StartupRefusedException ("PEPPOL_AP_KEYSTORE: the key '" + alias + "' cannot be read with the given password", ex);
    }
    checkValidity (certificate);
    checkKeyMatches (key, certificate);
    checkSeatId (certificate);

    final KeyStore trustStore = pkcs12 (settings.truststore, settings.truststorePassword, "PEPPOL_TRUSTSTORE");
    final List <X509Certificate> apCas = trustedCertificates (trustStore, "PEPPOL_TRUSTSTORE");
    final KeyStore smpTrustStore = pkcs12 (settings.smpTruststore, settings.smpTruststorePassword, "PEPPOL_SMP_TRUSTSTORE");
    trustedCertificates (smpTrustStore, "PEPPOL_SMP_TRUSTSTORE");

    // Peppol certificates are revoked through OCSP/CRL; a test PKI has neither, hence the switch.
    final ERevocationCheckMode revocation = settings.revocationCheck ? ERevocationCheckMode.OCSP_BEFORE_CRL
                                                                     : ERevocationCheckMode.NONE;
    // Also the process-wide default: phase4's sender checks receiver certificates without naming a mode.
    CertificateRevocationCheckerDefaults.setRevocationCheckMode (revocation);
    final TrustedCAChecker apCaChecker = new TrustedCAChecker (revocation,
                                                               Duration.ofHours (6),
                                                               1000,
                                                               apCas.toArray (new X509Certificate [0]));
    final ECertificateCheckResult own = apCaChecker.checkCertificate (certificate,
                                                                      OffsetDateTime.now (),
                                                                      ETriState.FALSE,
                                                                      revocation);
    if (own.isInvalid ())
      throw new StartupRefusedException ("The AP certificate " +
                                         subjectOf (certificate) +
                                         " is not accepted by the CA in PEPPOL_TRUSTSTORE (" +
                                         own.getReason () +
                                         "): the keystore and the truststore belong to different Peppol networks or PKIs");
    return new ApCredentials (keyStore, alias, settings.apKeystorePassword, certificate, trustStore, smpTrustStore, apCaChecker);
  }

  /** Signs, encrypts, decrypts and verifies with this AP's key and the Peppol AP CA. */
  public IAS4CryptoFactory cryptoFactory ()
  {
    return cryptoFactory;
  }

  public X509Certificate certificate ()
  {
    return certificate;
  }

  /** The AP's Peppol seat id (its certificate's CN): the AS4 From/PartyId. */
  public String seatId ()
  {
    return CertificateHelper.getSubjectCN (certificate);
  }

  /** Checks a partner AP's certificate: issued by the Peppol AP CA, valid now, not revoked. */
  public TrustedCAChecker apCaChecker ()
  {
    return apCaChecker;
  }

  /** Trust anchors for the XMLDSig signature of SMP answers. */
  public KeyStore smpTrustStore ()
  {
    return smpTrustStore;
  }

  public static String subjectOf (final X509Certificate certificate)
  {
    return certificate.getSubjectX500Principal ().getName ();
  }

  private static KeyStore pkcs12 (final Path file, final char [] password, final String setting) throws StartupRefusedException
  {
    try (InputStream in = Files.newInputStream (file))
    {
      final KeyStore store = KeyStore.getInstance ("PKCS12");
      store.load (in, password);
      return store;
    }
    catch (final Exception ex)
    {
      // The exception text of a wrong password says so; it never contains the password itself.
      throw new StartupRefusedException (setting + " (" + file + ") is not a PKCS#12 file readable with its password: " + ex.getMessage ());
    }
  }

  private static String keyAliasOf (final KeyStore store, final String wanted) throws StartupRefusedException
  {
    try
    {
      final List <String> keyAliases = new ArrayList <> ();
      for (final String alias : Collections.list (store.aliases ()))
        if (store.isKeyEntry (alias))
          keyAliases.add (alias);
      if (wanted != null && !wanted.isEmpty ())
      {
        if (!keyAliases.contains (wanted))
          throw new StartupRefusedException ("PEPPOL_AP_KEY_ALIAS '" + wanted + "' is not a key entry of PEPPOL_AP_KEYSTORE; it has " + keyAliases);
        return wanted;
      }
      if (keyAliases.size () != 1)
        throw new StartupRefusedException ("PEPPOL_AP_KEYSTORE must hold exactly one key (or set PEPPOL_AP_KEY_ALIAS); it has " + keyAliases);
      return keyAliases.get (0);
    }
    catch (final java.security.KeyStoreException ex)
    {
      throw new StartupRefusedException ("PEPPOL_AP_KEYSTORE cannot be listed", ex);
    }
  }

  private static void checkValidity (final X509Certificate certificate) throws StartupRefusedException
  {
    try
    {
      certificate.checkValidity ();
    }
    catch (final CertificateExpiredException ex)
    {
      throw new StartupRefusedException ("The AP certificate " +
                                         subjectOf (certificate) +
                                         " expired on " +
                                         certificate.getNotAfter ().toInstant () +
                                         ": renew it with the Peppol CA and replace PEPPOL_AP_KEYSTORE");
    }
    catch (final CertificateNotYetValidException ex)
    {
      throw new StartupRefusedException ("The AP certificate " +
                                         subjectOf (certificate) +
                                         " is valid only from " +
                                         certificate.getNotBefore ().toInstant ());
    }
  }

  /** A keystore whose certificate is not the key's own would sign what no partner can verify. */
  private static void checkKeyMatches (final PrivateKey key, final X509Certificate certificate) throws StartupRefusedException
  {
    try
    {
      final byte [] probe = "peppol-as4-key-check".getBytes (StandardCharsets.US_ASCII);
      final String algorithm = "EC".equals (key.getAlgorithm ()) ? "SHA256withECDSA" : "SHA256withRSA";
      final Signature signer = Signature.getInstance (algorithm);
      signer.initSign (key);
      signer.update (probe);
      final byte [] signature = signer.sign ();
      final Signature verifier = Signature.getInstance (algorithm);
      verifier.initVerify (certificate.getPublicKey ());
      verifier.update (probe);
      if (verifier.verify (signature))
        return;
    }
    catch (final Exception ex)
    {
      // falls through to the refusal: a key of another type does not match either
    }
    throw new StartupRefusedException ("The private key in PEPPOL_AP_KEYSTORE does not belong to its certificate " + subjectOf (certificate));
  }

  /** Peppol AP certificates name the seat id in their CN (Peppol AS4 profile, party identification). */
  private static void checkSeatId (final X509Certificate certificate) throws StartupRefusedException
  {
    final String cn = CertificateHelper.getSubjectCN (certificate);
    if (cn == null || !cn.matches (PeppolIdentifierHelper.REGEX_SEAT_ID))
      throw new StartupRefusedException ("The AP certificate's CN '" +
                                         cn +
                                         "' is not a Peppol seat id (" +
                                         PeppolIdentifierHelper.REGEX_SEAT_ID +
                                         "): is PEPPOL_AP_KEYSTORE an AP certificate?");
  }

  private static List <X509Certificate> trustedCertificates (final KeyStore store, final String setting) throws StartupRefusedException
  {
    try
    {
      final List <X509Certificate> result = new ArrayList <> ();
      for (final String alias : Collections.list (store.aliases ()))
        if (store.isCertificateEntry (alias))
          result.add ((X509Certificate) store.getCertificate (alias));
      if (result.isEmpty ())
        throw new StartupRefusedException (setting + " holds no trusted certificate entry");
      return result;
    }
    catch (final java.security.KeyStoreException ex)
    {
      throw new StartupRefusedException (setting + " cannot be listed", ex);
    }
  }
}

package io.einvoice.as4;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The engine's settings, read once from the environment (docs/peppol-as4.md, "Settings"). Every
 * problem is collected and reported together, so that an operator fixes a configuration in one go.
 */
public final class EngineSettings
{
  /** Where receivers are discovered: an SML by DNS, or one fixed SMP (tests, a closed network). */
  public enum Discovery
  {
    SML_PRODUCTION,
    SML_TEST,
    FIXED_SMP
  }

  public final int controlPort;
  public final String engineSecret;
  public final URI publicUrl;
  public final String inboundHost;
  public final int inboundPort;
  public final URI inboundCallbackUrl;
  public final Path apKeystore;
  public final char [] apKeystorePassword;
  public final String apKeyAlias;
  public final Path truststore;
  public final char [] truststorePassword;
  public final Path smpTruststore;
  public final char [] smpTruststorePassword;
  public final Discovery discovery;
  public final URI smpUrl;
  public final boolean revocationCheck;
  public final Path dataDir;
  public final Duration duplicateRetention;

  private EngineSettings (final Map <String, String> env, final List <String> problems)
  {
    final URI controlUrl = uri (env, problems, "AS4_ENGINE_URL", "http://127.0.0.1:8480");
    controlPort = controlUrl == null ? 0 : portOf (controlUrl);
    if (controlUrl != null && !isLoopback (controlUrl.getHost ()))
      problems.add ("AS4_ENGINE_URL must name a loopback host (127.0.0.1): the control API is not for the network");
    engineSecret = required (env, problems, "AS4_ENGINE_SECRET");
    if (engineSecret != null && engineSecret.length () < 16)
      problems.add ("AS4_ENGINE_SECRET must be at least 16 characters");
    publicUrl = uri (env, problems, "AS4_PUBLIC_URL", null);
    inboundHost = env.getOrDefault ("AS4_ENGINE_INBOUND_HOST", "127.0.0.1");
    inboundPort = port (env, problems, "AS4_ENGINE_INBOUND_PORT");
    inboundCallbackUrl = uri (env, problems, "AS4_INBOUND_CALLBACK_URL", null);
    apKeystore = path (env, problems, "PEPPOL_AP_KEYSTORE");
    apKeystorePassword = password (env, problems, "PEPPOL_AP_KEYSTORE_PASSWORD");
    apKeyAlias = env.get ("PEPPOL_AP_KEY_ALIAS");
    truststore = path (env, problems, "PEPPOL_TRUSTSTORE");
    truststorePassword = password (env, problems, "PEPPOL_TRUSTSTORE_PASSWORD");
    smpTruststore = path (env, problems, "PEPPOL_SMP_TRUSTSTORE");
    smpTruststorePassword = password (env, problems, "PEPPOL_SMP_TRUSTSTORE_PASSWORD");

    final String fixedSmp = env.get ("PEPPOL_SMP_URL");
    final String sml = env.getOrDefault ("PEPPOL_SML", "test");
    if (fixedSmp != null && !fixedSmp.isEmpty ())
    {
      discovery = Discovery.FIXED_SMP;
      smpUrl = uri (env, problems, "PEPPOL_SMP_URL", null);
    }
    else
    {
      smpUrl = null;
      switch (sml)
      {
        case "production":
          discovery = Discovery.SML_PRODUCTION;
          break;
        case "test":
          discovery = Discovery.SML_TEST;
          break;
        default:
          // `sandbox` is the in-house simulated SML of PEPPOL_MODE=sandbox: nothing the engine can ask.
          discovery = null;
          problems.add ("PEPPOL_SML must be `test` or `production` for the engine (or set PEPPOL_SMP_URL), not `" +
                        sml +
                        "`");
      }
    }

    final String revocation = env.getOrDefault ("PEPPOL_REVOCATION_CHECK", "on");
    if (!"on".equals (revocation) && !"off".equals (revocation))
      problems.add ("PEPPOL_REVOCATION_CHECK must be `on` or `off`, not `" + revocation + "`");
    revocationCheck = !"off".equals (revocation);
    dataDir = Path.of (env.getOrDefault ("AS4_ENGINE_DATA_DIR", ".run/as4-engine")).toAbsolutePath ();
    duplicateRetention = days (env, problems, "AS4_DUPLICATE_RETENTION_DAYS", "30");
  }

  /** Reads the settings; throws {@link StartupRefusedException} naming every missing or wrong one. */
  public static EngineSettings fromEnvironment (final Map <String, String> env) throws StartupRefusedException
  {
    final List <String> problems = new ArrayList <> ();
    final EngineSettings settings = new EngineSettings (env, problems);
    if (!problems.isEmpty ())
      throw new StartupRefusedException ("Invalid engine settings:\n  - " + String.join ("\n  - ", problems));
    return settings;
  }

  /** What /health reports as the discovery mode (no secrets in it). */
  public String modeDescription ()
  {
    switch (discovery)
    {
      case FIXED_SMP:
        return "smp:" + smpUrl;
      case SML_PRODUCTION:
        return "sml:production";
      default:
        return "sml:test";
    }
  }

  private static String required (final Map <String, String> env, final List <String> problems, final String name)
  {
    final String value = env.get (name);
    if (value == null || value.isEmpty ())
    {
      problems.add (name + " is not set");
      return null;
    }
    return value;
  }

  private static char [] password (final Map <String, String> env, final List <String> problems, final String name)
  {
    // An empty password is legitimate for a PKCS#12 file; only a missing setting is an error.
    final String value = env.get (name);
    if (value == null)
    {
      problems.add (name + " is not set");
      return new char [0];
    }
    return value.toCharArray ();
  }

  private static Path path (final Map <String, String> env, final List <String> problems, final String name)
  {
    final String value = required (env, problems, name);
    if (value == null)
      return null;
    final Path path = Path.of (value);
    if (!path.toFile ().isFile ())
      problems.add (name + " names no readable file: " + value);
    return path;
  }

  private static URI uri (final Map <String, String> env,
                          final List <String> problems,
                          final String name,
                          final String fallback)
  {
    final String value = env.getOrDefault (name, fallback);
    if (value == null || value.isEmpty ())
    {
      problems.add (name + " is not set");
      return null;
    }
    try
    {
      final URI uri = new URI (value);
      if (uri.getHost () == null || !("http".equals (uri.getScheme ()) || "https".equals (uri.getScheme ())))
        throw new IllegalArgumentException ("not an http(s) URL");
      return uri;
    }
    catch (final Exception ex)
    {
      problems.add (name + " is not an http(s) URL: " + value);
      return null;
    }
  }

  private static int port (final Map <String, String> env, final List <String> problems, final String name)
  {
    final String value = required (env, problems, name);
    if (value == null)
      return 0;
    try
    {
      final int port = Integer.parseInt (value);
      if (port <= 0 || port > 65535)
        throw new NumberFormatException ();
      return port;
    }
    catch (final NumberFormatException ex)
    {
      problems.add (name + " is not a TCP port: " + value);
      return 0;
    }
  }

  private static Duration days (final Map <String, String> env, final List <String> problems, final String name, final String fallback)
  {
    final String value = env.getOrDefault (name, fallback);
    try
    {
      final long days = Long.parseLong (value);
      if (days < 1)
        throw new NumberFormatException ();
      return Duration.ofDays (days);
    }
    catch (final NumberFormatException ex)
    {
      problems.add (name + " is not a positive number of days: " + value);
      return Duration.ZERO;
    }
  }

  private static int portOf (final URI uri)
  {
    if (uri.getPort () > 0)
      return uri.getPort ();
    return "https".equals (uri.getScheme ()) ? 443 : 80;
  }

  private static boolean isLoopback (final String host)
  {
    return "127.0.0.1".equals (host) || "localhost".equals (host) || "[::1]".equals (host);
  }
}

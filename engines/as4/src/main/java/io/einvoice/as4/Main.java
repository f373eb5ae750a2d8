package io.einvoice.as4;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.net.httpserver.HttpServer;

/**
 * The Peppol AS4 engine (issue #46, docs/peppol-as4.md): the control API on loopback and the AS4
 * endpoint, both on the JDK's HTTP server (no servlet container: phase4's request handler needs
 * only an input stream, the headers and a response to fill). Exits with status 2 when the
 * configuration is refused, so that the starting script can tell that from a crash.
 */
public final class Main
{
  private static final Logger LOG = LoggerFactory.getLogger (Main.class);

  private Main ()
  {}

  /**
   * JAXP finds its TransformerFactory by system property, else by scanning every jar's
   * META-INF/services: JAXB asks for one per DOM element it marshals, and with ~110 jars the scan was
   * most of the engine's CPU per message (JFR, bench phase as4: 420 ms → 130 ms per document). Naming
   * the provider the scan finds anyway (Saxon-HE, from phase4's Schematron dependencies) is JAXP's
   * documented configuration; an operator's own -D setting wins.
   */
  private static final String TRANSFORMER_FACTORY = "javax.xml.transform.TransformerFactory";

  public static void main (final String [] args)
  {
    if (System.getProperty (TRANSFORMER_FACTORY) == null)
      System.setProperty (TRANSFORMER_FACTORY, "net.sf.saxon.TransformerFactoryImpl");
    try
    {
      run ();
    }
    catch (final StartupRefusedException ex)
    {
      LOG.error ("AS4 engine refused to start: {}", ex.getMessage ());
      System.exit (2);
    }
    catch (final Exception ex)
    {
      LOG.error ("AS4 engine failed to start", ex);
      System.exit (1);
    }
  }

  private static void run () throws Exception
  {
    final EngineSettings settings = EngineSettings.fromEnvironment (System.getenv ());
    // phase4 first: it must see its configuration before any of its classes reads it.
    final Phase4Runtime phase4 = Phase4Runtime.start (settings);
    final ApCredentials credentials = ApCredentials.load (settings);

    // Sending blocks on the receiving AP for seconds; a few threads keep /health answering meanwhile.
    final ExecutorService controlThreads = Executors.newFixedThreadPool (8);
    final HttpServer control = HttpServer.create (new InetSocketAddress (InetAddress.getLoopbackAddress (), settings.controlPort), 64);
    control.createContext ("/", new ControlApi (settings, credentials, new OutboundSender (credentials, new ReceiverDiscovery (settings, credentials))));
    control.setExecutor (controlThreads);

    final ExecutorService inboundThreads = Executors.newFixedThreadPool (8);
    final HttpServer inbound = HttpServer.create (new InetSocketAddress (settings.inboundHost, settings.inboundPort), 64);
    inbound.createContext ("/", new InboundEndpoint (settings, credentials, phase4.deliveredMessageIds ()));
    inbound.setExecutor (inboundThreads);

    Runtime.getRuntime ().addShutdownHook (new Thread ( () -> {
      LOG.info ("AS4 engine stopping");
      control.stop (1);
      inbound.stop (1);
      controlThreads.shutdown ();
      inboundThreads.shutdown ();
      phase4.close ();
    }, "as4-engine-shutdown"));

    if (!settings.revocationCheck)
      LOG.warn ("Revocation checks of AP certificates are off (PEPPOL_REVOCATION_CHECK=off): for a test PKI only");
    inbound.start ();
    control.start ();
    LOG.info ("AS4 engine ready: control on 127.0.0.1:{}, AS4 on {}:{} ({}), discovery {}, AP certificate {} valid until {}",
              settings.controlPort,
              settings.inboundHost,
              settings.inboundPort,
              settings.publicUrl,
              settings.modeDescription (),
              ApCredentials.subjectOf (credentials.certificate ()),
              credentials.certificate ().getNotAfter ().toInstant ());
  }
}

package io.einvoice.as4;

import java.io.File;

import com.helger.phase4.incoming.AS4ServerInitializer;
import com.helger.phase4.incoming.mgr.AS4ProfileSelector;
import com.helger.phase4.mgr.MetaAS4Manager;
import com.helger.phase4.profile.peppol.AS4PeppolProfileRegistarSPI;
import com.helger.photon.io.WebFileIO;
import com.helger.servlet.mock.MockServletContext;
import com.helger.web.scope.mgr.WebScopeManager;

/**
 * phase4's process-wide state outside a servlet container: the global scope its managers live in,
 * the data folder of the persistent MessageId store, the Peppol AS4 profile as the only profile,
 * and the job that evicts old MessageIds. phase4's own standalone senders start the same way
 * (a global scope over a mock servlet context).
 */
final class Phase4Runtime implements AutoCloseable
{
  /** phase4 reads this from its configuration (system properties first) when its classes load. */
  private static final String DUPLICATE_DISPOSAL_MINUTES = "phase4.incoming.duplicatedisposal.minutes";

  private Phase4Runtime ()
  {}

  static Phase4Runtime start (final EngineSettings settings) throws StartupRefusedException
  {
    // Before any phase4 class reads its configuration.
    System.setProperty (DUPLICATE_DISPOSAL_MINUTES, Long.toString (settings.duplicateRetention.toMinutes ()));
    final File dataDir = settings.dataDir.toFile ();
    if (!dataDir.isDirectory () && !dataDir.mkdirs ())
      throw new StartupRefusedException ("AS4_ENGINE_DATA_DIR " + dataDir + " cannot be created");

    MetaAS4Manager.setFactory (new EngineManagerFactory ());
    WebScopeManager.onGlobalBegin (MockServletContext.create ());
    WebFileIO.initPaths (dataDir, dataDir.getAbsolutePath (), false);
    AS4ProfileSelector.setCustomDefaultAS4ProfileID (AS4PeppolProfileRegistarSPI.AS4_PROFILE_ID);
    AS4ServerInitializer.initAS4Server ();
    return new Phase4Runtime ();
  }

  /** The store phase4 created through {@link EngineManagerFactory}. */
  DeliveredMessageIds deliveredMessageIds ()
  {
    return (DeliveredMessageIds) MetaAS4Manager.getIncomingDuplicateMgr ();
  }

  @Override
  public void close ()
  {
    AS4ServerInitializer.shutdownAS4Server ();
    // Ends the global scope: the MessageId store writes its file and closes its write-ahead log.
    WebScopeManager.onGlobalEnd ();
  }
}

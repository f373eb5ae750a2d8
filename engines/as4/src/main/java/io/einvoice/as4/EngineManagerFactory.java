package io.einvoice.as4;

import com.helger.dao.DAOException;
import com.helger.phase4.duplicate.IAS4DuplicateManager;
import com.helger.phase4.mgr.AS4ManagerFactoryInMemory;
import com.helger.phase4.mgr.IAS4ManagerFactory;
import com.helger.phase4.mgr.IAS4TimestampManager;
import com.helger.phase4.model.mpc.IMPCManager;
import com.helger.phase4.model.pmode.IPModeManager;
import com.helger.phase4.profile.IAS4ProfileManager;
import com.helger.phase4.util.Phase4Exception;

/**
 * phase4's managers for this engine: everything in memory (PModes come from the Peppol profile at
 * each start) except the received MessageIds, which must outlive a restart ({@link DeliveredMessageIds}).
 */
final class EngineManagerFactory implements IAS4ManagerFactory
{
  private final AS4ManagerFactoryInMemory inMemory = new AS4ManagerFactoryInMemory ();

  public IMPCManager createMPCManager () throws Phase4Exception
  {
    return inMemory.createMPCManager ();
  }

  public IPModeManager createPModeManager () throws Phase4Exception
  {
    return inMemory.createPModeManager ();
  }

  public IAS4DuplicateManager createDuplicateManager () throws Phase4Exception
  {
    try
    {
      return new DeliveredMessageIds ();
    }
    catch (final DAOException ex)
    {
      throw new Phase4Exception ("Cannot open the received MessageId store " + DeliveredMessageIds.FILE_NAME, ex);
    }
  }

  public IAS4ProfileManager createProfileManager () throws Phase4Exception
  {
    return inMemory.createProfileManager ();
  }

  public IAS4TimestampManager createTimestampManager ()
  {
    return inMemory.createTimestampManager ();
  }
}

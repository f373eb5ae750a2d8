package io.einvoice.as4;

import com.helger.base.state.EContinue;
import com.helger.dao.DAOException;
import com.helger.phase4.duplicate.AS4DuplicateManagerXML;

/**
 * phase4's persistent duplicate store (a write-ahead-logged XML file under the data directory, so
 * it survives restarts and kill -9), used at the point where a received message counts as handed
 * over, not where phase4 first sees it.
 *
 * Why: phase4 registers a MessageId before the incoming SPI runs and answers every later copy with
 * an ebMS error. A sender whose first attempt we answered "retry later" (the gateway was down)
 * would then never get its document in, and a sender that crashed after our receipt would be told
 * its retry failed. So phase4's early check passes everything, the SPI asks
 * {@link #wasHandedOver(String)} after verifying the message, answers a duplicate with a receipt,
 * and calls {@link #rememberHandedOver} only once the gateway took the document.
 * phase4's AS4DuplicateCleanupJob still evicts entries older than the retention setting.
 */
public final class DeliveredMessageIds extends AS4DuplicateManagerXML
{
  public static final String FILE_NAME = "as4-delivered-message-ids.xml";

  public DeliveredMessageIds () throws DAOException
  {
    super (FILE_NAME);
  }

  /** phase4's pre-SPI duplicate check: deliberately never a duplicate (see the class comment). */
  @Override
  public EContinue registerAndCheck (final String messageId, final String profileId, final String pmodeId)
  {
    return EContinue.CONTINUE;
  }

  public boolean wasHandedOver (final String messageId)
  {
    return getItemOfMessageID (messageId) != null;
  }

  public void rememberHandedOver (final String messageId, final String profileId, final String pmodeId)
  {
    // A concurrent copy may have been remembered first; either way the id is now recorded.
    super.registerAndCheck (messageId, profileId, pmodeId);
  }
}

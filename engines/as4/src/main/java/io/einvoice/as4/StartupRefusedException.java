package io.einvoice.as4;

/**
 * The engine cannot serve with this configuration (a missing setting, an expired or mismatched
 * certificate). Its message is written for the operator and never contains a key or a password.
 */
public final class StartupRefusedException extends Exception
{
  public StartupRefusedException (final String message)
  {
    super (message);
  }

  public StartupRefusedException (final String message, final Throwable cause)
  {
    super (message, cause);
  }
}

/**
 * The one setting that names this access point's service provider id (OpenPeppol SPIS, `0242:<seat
 * number>`): PEPPOL_SERVICE_PROVIDER_ID, the sender of the MLS it answers with, the receiver of others'
 * (docs/peppol-as4.md) and the UAE TDD's ReportersRepresentative (uae/README.md). The UAE area named it
 * UAE_AP_SPID first: still read, deprecated, while PEPPOL_SERVICE_PROVIDER_ID is unset (README "Configuration").
 */
import type { Logger } from '@einvoice/domain';

/** This access point's service provider id as the environment names it. */
export interface ServiceProviderIdSetting {
  /** The id; undefined when neither setting names one. */
  readonly id: string | undefined;
  /** Set when UAE_AP_SPID is set: a warning line for the start-up log. */
  readonly deprecation?: string;
}

/**
 * PEPPOL_SERVICE_PROVIDER_ID, else the deprecated UAE_AP_SPID.
 * @throws Error naming both when both are set and differ: which one this access point is, is not guessed
 */
export function serviceProviderIdSetting(env: NodeJS.ProcessEnv = process.env): ServiceProviderIdSetting {
  const id = env.PEPPOL_SERVICE_PROVIDER_ID?.trim() || undefined;
  const deprecated = env.UAE_AP_SPID?.trim() || undefined;
  if (!deprecated) return { id };
  if (id && id !== deprecated) {
    throw new Error(`PEPPOL_SERVICE_PROVIDER_ID (${id}) and UAE_AP_SPID (${deprecated}) name two service provider ids for this access point: set PEPPOL_SERVICE_PROVIDER_ID only (UAE_AP_SPID is its deprecated name).`);
  }
  const deprecation = id
    ? 'UAE_AP_SPID is deprecated and repeats PEPPOL_SERVICE_PROVIDER_ID: remove it.'
    : `UAE_AP_SPID is deprecated: this access point's service provider id (${deprecated}) is read from it because PEPPOL_SERVICE_PROVIDER_ID is unset; set PEPPOL_SERVICE_PROVIDER_ID instead.`;
  return { id: id ?? deprecated, deprecation };
}

/** At an app's start, for the apps that read the id (the gateway, the reporting worker): the deprecation as a warning line; a conflict stops the start. */
export function announceServiceProviderId(log: Logger, env: NodeJS.ProcessEnv = process.env): ServiceProviderIdSetting {
  const setting = serviceProviderIdSetting(env);
  if (setting.deprecation) log('warn', setting.deprecation);
  return setting;
}

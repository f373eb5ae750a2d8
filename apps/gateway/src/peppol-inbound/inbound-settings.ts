import { SERVICE_PROVIDER_ICD, serviceProviderIdSetting } from '@einvoice/areas';

/** The gateway's side of live Peppol (README "Configuration", docs/peppol-as4.md "Settings"). */
export interface PeppolInboundSettings {
  /** AS4_ENGINE_SECRET: the engine's calls carry it; unset, the inbound route serves no one. */
  readonly engineSecret: string | undefined;
  /** PEPPOL_SERVICE_PROVIDER_ID (formerly UAE_AP_SPID): this access point's id (`0242:<seat number>`), the sender of its MLS and the receiver of others'. */
  readonly serviceProviderId: string | undefined;
  /** PEPPOL_SERVICE_PROVIDER_COUNTRY: COUNTRY_C1 of the MLS this access point sends (its own country, ISO 3166-1 alpha-2). */
  readonly serviceProviderCountry: string | undefined;
}

/**
 * Reads the settings; with AS4_ENGINE_SECRET set (the inbound route on), an access point id or
 * country missing or malformed stops the start: the route could receive but never answer with an MLS.
 */
export function loadPeppolInboundSettings(env: NodeJS.ProcessEnv = process.env): PeppolInboundSettings {
  const engineSecret = env.AS4_ENGINE_SECRET || undefined;
  const serviceProviderId = serviceProviderIdSetting(env).id;
  const serviceProviderCountry = env.PEPPOL_SERVICE_PROVIDER_COUNTRY?.trim().toUpperCase() || undefined;
  if (engineSecret) {
    if (!serviceProviderId || !new RegExp(`^${SERVICE_PROVIDER_ICD}:[A-Za-z0-9][A-Za-z0-9._-]*$`).test(serviceProviderId)) {
      throw new Error(`AS4_ENGINE_SECRET is set (live Peppol), so PEPPOL_SERVICE_PROVIDER_ID must be this access point's service provider id, ${SERVICE_PROVIDER_ICD}:<its seat number> (SPIS: POP000123 is 0242:000123); it is ${serviceProviderId ?? 'unset'}.`);
    }
    if (!serviceProviderCountry || !/^[A-Z]{2}$/.test(serviceProviderCountry)) {
      throw new Error(`AS4_ENGINE_SECRET is set (live Peppol), so PEPPOL_SERVICE_PROVIDER_COUNTRY must be this access point's country (ISO 3166-1 alpha-2, e.g. BE); it is ${serviceProviderCountry ?? 'unset'}.`);
    }
  }
  return { engineSecret, serviceProviderId, serviceProviderCountry };
}

/**
 * Registry entries of Belgium, Germany and Singapore (seed 002): Peppol only, no tax authority to
 * report to; one implementation, three profiles (profiles.ts). They go through the platform's one
 * pipeline (codec.ts) and use its own events and read models.
 */
import { PEPPOL_RECEIVED_NAMES } from '@einvoice/domain';
import type { AreaDefinition, RuleSetId } from '../registry/area';
import { peppolDocuments, peppolExchange, peppolOnboarding } from './codec';
import { type PeppolAreaCode, profiles } from '../peppol-ubl/profiles';

const names: Readonly<Record<PeppolAreaCode, string>> = { be: 'Belgium', de: 'Germany', sg: 'Singapore' };

/** The official rule sets the rendered UBL passes (shared/conformance/<ruleSet>/<version>). */
const ruleSets: Readonly<Record<PeppolAreaCode, RuleSetId>> = {
  be: 'peppol-bis-3:billing:2026.5',
  de: 'peppol-bis-3:billing:2026.5',
  sg: 'pint-sg:billing:1.4.1',
};

function definition(code: PeppolAreaCode): AreaDefinition {
  const profile = profiles[code];
  return {
    code,
    name: names[code],
    ruleSetId: ruleSets[code],
    routePrefix: `${code}/einvoice`,
    authority: { answer: 'none' },
    peppol: { customizationId: profile.customizationId, profileId: profile.profileId, ruleSetId: ruleSets[code] },
    exchange: peppolExchange(profile),
    webhookEvents: PEPPOL_RECEIVED_NAMES,
    onboarding: peppolOnboarding(profile),
    documents: peppolDocuments(profile),
  };
}

/** Belgium, Germany, Singapore. */
export const peppolDefinitions = { be: definition('be'), de: definition('de'), sg: definition('sg') } as const;

/**
 * Registry entries of Belgium, Germany and Singapore (seed 002): Peppol only, no tax authority to
 * report to; one implementation, three profiles (profiles.ts). They go through the platform's one
 * pipeline (codec.ts) and use its own events and read models.
 */
import { PEPPOL_RECEIVED_NAMES } from '@einvoice/domain';
import type { AreaDefinition, RuleSetId } from '../registry/area';
import { peppolDocuments, peppolExchange, peppolOnboarding } from './codec';
import { type PeppolAreaCode, profiles } from '../peppol-ubl/profiles';
import { ublPrintable } from '../printable/from-ubl';
import type { PrintableLanguage } from '../registry/printable';

const names: Readonly<Record<PeppolAreaCode, string>> = { be: 'Belgium', de: 'Germany', sg: 'Singapore' };

/** The official rule sets the rendered UBL passes (shared/conformance/<ruleSet>/<version>). */
/**
 * The printed copy's labels (#49): English, plus German in Germany; Belgium's three official languages are
 * left to a later issue (no law asks the printed copy of a Peppol document for one), Singapore's is English.
 */
const printLanguages: Readonly<Record<PeppolAreaCode, readonly PrintableLanguage[]>> = { be: ['en'], de: ['en', 'de'], sg: ['en'] };

/** What the seller's tax identifier (BT-31) is called on the printed copy: Singapore's is its GST registration. */
const taxIdLabels: Readonly<Record<PeppolAreaCode, string>> = { be: 'VAT', de: 'USt-IdNr. / VAT', sg: 'GST' };

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
    printable: ublPrintable({ languages: printLanguages[code], taxIdLabel: taxIdLabels[code] }),
  };
}

/** Belgium, Germany, Singapore. */
export const peppolDefinitions = { be: definition('be'), de: definition('de'), sg: definition('sg') } as const;

/**
 * Phase 2 of UAE validation (issue 10): OUR implementation of the PINT AE 2026.5 rules, run on the
 * rendered UBL in the request path. The official Schematron is the oracle in the tests
 * (parity.int.spec.ts): same verdict, same fatal rule ids. README.md "Phase 2".
 */
import { parseXml } from '../../shared/xml-read';
import { compile, runModes, type UaeRuleIssue } from './engine';
import { jurisdictionModes } from './jurisdiction';
import { officialTexts } from './official-texts';
import { ublModesOf } from './ubl-rules';

export { selfBillingPairingIssues } from './self-billing-pairing';
export type { UaeRuleIssue };

/** The compiled rules of each specification (the code lists of ibr-cl-01 differ between them). */
const modesOf = {
  billing: [...jurisdictionModes, ...ublModesOf('billing')].map(compile),
  selfbilling: [...jurisdictionModes, ...ublModesOf('selfbilling')].map(compile),
};

/** Every PINT AE rule the rendered document breaks, once each (document order of the first breach). */
export function checkUaeRules(xml: string): UaeRuleIssue[] {
  const root = parseXml(xml);
  const customization = root.children.find((c) => c.name === 'CustomizationID')?.text.trim() ?? '';
  const spec = customization.startsWith('urn:peppol:pint:selfbilling') ? 'selfbilling' : 'billing';
  return runModes(root, modesOf[spec]).map((code) => ({ path: 'Document', code, message: officialTexts[code] ?? code, severity: 'error' }));
}

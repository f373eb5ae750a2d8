import { AppError } from '@einvoice/domain';
import { type RuleSetName, ruleSets } from '../conformance/rule-sets';
import { declareOfficialCheck } from '../conformance/runtime';
import { blocking, runStylesheets } from '../conformance/schematron';
import type { UaeDocument } from './document';
import { checkUaeRules, selfBillingPairingIssues } from './rules';
import { uaeDocumentKind } from './specification';

/** Phase 2's message (seed "Errors"): every issue has path `Document` and the official rule id as code. */
const UAE_RULES_MESSAGE = 'Document is invalid';

interface RuleIssue {
  readonly path: 'Document';
  readonly code: string;
  readonly message: string;
  readonly severity: 'error';
}

/**
 * `UAE_OFFICIAL_SCHEMATRON=true`: the official PINT AE Schematron also runs in the request path, on
 * the rendered XML, for operators who want the official verdict on every document. It costs
 * hundreds of milliseconds of CPU per document (README "United Arab Emirates"): off by default. Its
 * stylesheets are read from CONFORMANCE_DIR at each app's start, which the setting requires
 * (conformance/runtime.ts); only the gateway runs them, and SaxonJS is loaded on its first document only.
 */
const PINT_AE_SCHEMATRON = declareOfficialCheck({
  name: 'PINT AE Schematron (UAE_OFFICIAL_SCHEMATRON)',
  folder: '',
  files: [...ruleSets['pint-ae:billing:2026.5'], ...ruleSets['pint-ae:selfbilling:2026.5']],
  onlyWhen: { variable: 'UAE_OFFICIAL_SCHEMATRON', value: 'true' },
});

/** On when the gateway started with UAE_OFFICIAL_SCHEMATRON=true (and so with CONFORMANCE_DIR). */
const officialSchematronInRequestPath = (): boolean => PINT_AE_SCHEMATRON.files() !== undefined;

function officialIssues(xml: string, ruleSetId: string): RuleIssue[] {
  const files = PINT_AE_SCHEMATRON.files() ?? [];
  const stylesheets = ruleSets[ruleSetId as RuleSetName].map((name) => files.find((f) => f.fileName === name)?.contents ?? '');
  return blocking(runStylesheets(stylesheets, xml)).map((f) => ({ path: 'Document', code: f.id, message: f.text.replace(/\s+/g, ' ').trim(), severity: 'error' }));
}

/**
 * Phase 2: the PINT AE rules on the rendered document (ours, libs/areas/src/uae/rules: the official
 * verdicts at well under a millisecond; with UAE_OFFICIAL_SCHEMATRON=true the official Schematron
 * too). Runs only after phase 1 passed, so the two phases never mix in one answer; a rule broken is
 * a 400 with every broken rule, nothing stored.
 */
export function checkRulesPhase(document: UaeDocument, xml: string): void {
  const { ruleSetId } = uaeDocumentKind(document.document_type).specification;
  const issues: RuleIssue[] = [
    // The one rule that reads the request: the self-billing flag is not in the UBL (seed "Document header", ibr-cl-01).
    ...selfBillingPairingIssues(document),
    ...checkUaeRules(xml),
    ...(officialSchematronInRequestPath() ? officialIssues(xml, ruleSetId) : []),
  ];
  if (issues.length > 0) throw new AppError('validation', 'DOCUMENT.RULES', UAE_RULES_MESSAGE, { issues: dedupe(issues) });
}

/** One issue per rule id (a rule broken on several lines is one finding). */
function dedupe(issues: readonly RuleIssue[]): RuleIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => (seen.has(i.code) ? false : (seen.add(i.code), true)));
}

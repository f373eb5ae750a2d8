import { AppError } from '@einvoice/domain';
import { uae } from '@einvoice/areas';

/** Phase 2's message (seed "Errors"): every issue has path `Document` and the official rule id as code. */
export const UAE_RULES_MESSAGE = 'Document is invalid';

interface RuleIssue {
  readonly path: 'Document';
  readonly code: string;
  readonly message: string;
  readonly severity: 'error';
}

/** The official validators (SaxonJS, the SEF files of shared/conformance), loaded only where the setting asks for them. */
type OfficialValidators = typeof import('@einvoice/areas/conformance');
let official: OfficialValidators | undefined;

/**
 * `UAE_OFFICIAL_SCHEMATRON=true`: the official PINT AE Schematron also runs in the request path, on
 * the rendered XML, for operators who want the official verdict on every document. It costs
 * hundreds of milliseconds of CPU per document (README "United Arab Emirates"): off by default.
 */
export const officialSchematronInRequestPath = (): boolean => process.env.UAE_OFFICIAL_SCHEMATRON === 'true';

async function officialIssues(xml: string, ruleSetId: string): Promise<RuleIssue[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand: SaxonJS and the SEF files are large
  official ??= require('@einvoice/areas/conformance') as OfficialValidators;
  const failures = official.blocking(await official.runSchematron(ruleSetId as Parameters<OfficialValidators['runSchematron']>[0], xml));
  return failures.map((f) => ({ path: 'Document', code: f.id, message: f.text.replace(/\s+/g, ' ').trim(), severity: 'error' }));
}

/**
 * Phase 2: the PINT AE rules on the rendered document (ours, libs/areas/src/uae/rules: the official
 * verdicts at well under a millisecond; with UAE_OFFICIAL_SCHEMATRON=true the official Schematron
 * too). Runs only after phase 1 passed, so the two phases never mix in one answer; a rule broken is
 * a 400 with every broken rule, nothing stored.
 */
export async function rulesPhase(document: uae.UaeDocument, rendered: uae.RenderedUae): Promise<void> {
  const ruleSetId = uae.uaeDocumentKind(document.document_type).specification.ruleSetId;
  const issues: RuleIssue[] = [
    // The one rule that reads the request: the self-billing flag is not in the UBL (seed "Document header", ibr-cl-01).
    ...uae.selfBillingPairingIssues(document),
    ...uae.checkUaeRules(rendered.xml),
    ...(officialSchematronInRequestPath() ? await officialIssues(rendered.xml, ruleSetId) : []),
  ];
  if (issues.length > 0) throw new AppError('validation', 'DOCUMENT.RULES', UAE_RULES_MESSAGE, { issues: dedupe(issues) });
}

/** One issue per rule id (a rule broken on several lines is one finding). */
function dedupe(issues: readonly RuleIssue[]): RuleIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => (seen.has(i.code) ? false : (seen.add(i.code), true)));
}

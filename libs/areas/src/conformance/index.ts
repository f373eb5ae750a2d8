/**
 * The optional run-time checks against official artefacts (CONFORMANCE_DIR, runtime.ts) and the engines
 * that run them, loaded on demand. The tests' oracle (official-validators.ts) is not part of it.
 */
export { type OfficialCheck, type OfficialCheckSpec, type OfficialChecksState, type OfficialFile, announceOfficialChecks, declareOfficialCheck, startOfficialChecks } from './runtime';
export { type RuleSetName, ruleSets } from './rule-sets';
export { type SchematronFailure, blocking, runStylesheets } from './schematron';

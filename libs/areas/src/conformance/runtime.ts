/**
 * The run-time setting CONFORMANCE_DIR: a folder of official artefacts (the layout of
 * shared/conformance). Set, the service also checks the XML it sends against them (each check an area
 * declares here); unset, the sandbox authorities apply the project's own checks only and the service
 * reads nothing outside its repository (DESIGN.md "Areas"). The files are read once, at the app's start
 * (startOfficialChecks): a folder or file that is configured but missing stops the start, never a request.
 * Not the tests' oracle (location.ts): nothing here falls back to `../shared`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '@einvoice/domain';

/** One official file as loaded: `fileName` relative to its check's folder (an XSD's imports resolve by it). */
export interface OfficialFile {
  readonly fileName: string;
  readonly contents: string;
}

/** What one run-time check needs of CONFORMANCE_DIR. */
export interface OfficialCheckSpec {
  /** For the start's log line and messages, e.g. `KSeF FA(3) XSD`. */
  readonly name: string;
  /** Its folder inside CONFORMANCE_DIR, e.g. `ksef/FA` (`''`: the folder itself). */
  readonly folder: string;
  /** Its files, relative to `folder`; the first is the main one. */
  readonly files: readonly string[];
  /**
   * A check on only when its own setting says so (`UAE_OFFICIAL_SCHEMATRON=true`): that setting then
   * needs CONFORMANCE_DIR. Without it, a check is on whenever CONFORMANCE_DIR is set.
   */
  readonly onlyWhen?: { readonly variable: string; readonly value: string };
}

/** A declared check: its files as loaded at start, or undefined when it is off in this process. */
export interface OfficialCheck {
  readonly spec: OfficialCheckSpec;
  files(): readonly OfficialFile[] | undefined;
}

/** What the start decided, for its one log line. */
export type OfficialChecksState =
  | { readonly on: false }
  | { readonly on: true; readonly dir: string; readonly checks: readonly string[] };

const declared: OfficialCheck[] = [];
const loaded = new Map<OfficialCheck, readonly OfficialFile[]>();

/** Declares a check (at module load, next to the code that runs it); startOfficialChecks reads its files. */
export function declareOfficialCheck(spec: OfficialCheckSpec): OfficialCheck {
  const check: OfficialCheck = { spec, files: () => loaded.get(check) };
  declared.push(check);
  return check;
}

/** What CONFORMANCE_DIR holds, said in its errors: each check's files under its own folder (README "Configuration"). */
const LAYOUT = 'a folder of the official artefacts, each under its own folder (ubl-2.1/, pint-ae/<version>/, ksef/FA/, verifactu/)';
const wanted = (spec: OfficialCheckSpec, env: NodeJS.ProcessEnv) =>
  !spec.onlyWhen || env[spec.onlyWhen.variable] === spec.onlyWhen.value;
const relative = (spec: OfficialCheckSpec, file: string) => path.posix.join(spec.folder, file);
const isFile = (file: string) => fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;

/**
 * Reads the files of every declared check that CONFORMANCE_DIR turns on; throws, with what to do,
 * when the folder or one of those files is missing, or when a check's own setting asks for it and
 * CONFORMANCE_DIR is unset. Called once by each app before it serves anything.
 */
export function startOfficialChecks(env: NodeJS.ProcessEnv = process.env): OfficialChecksState {
  loaded.clear();
  const dir = env.CONFORMANCE_DIR?.trim();
  const on = declared.filter((c) => wanted(c.spec, env));
  if (!dir) {
    const asking = on.flatMap(({ spec }) => (spec.onlyWhen ? [`${spec.onlyWhen.variable}=${spec.onlyWhen.value} (${spec.name})`] : []));
    if (asking.length) {
      const those = asking.length > 1 ? 'those settings' : 'that setting';
      throw new Error(`${asking.join(', ')} needs CONFORMANCE_DIR: set it to ${LAYOUT}, or unset ${those}.`);
    }
    return { on: false };
  }
  const root = path.resolve(dir);
  if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`CONFORMANCE_DIR=${dir} is not a folder: set it to ${LAYOUT}, or unset it to run the project's own checks only.`);
  }
  const missing = on.flatMap((c) => c.spec.files.map((f) => relative(c.spec, f))).filter((f) => !isFile(path.join(root, f)));
  if (missing.length) {
    throw new Error(
      `CONFORMANCE_DIR=${dir} lacks official files the checks it turns on need: ${missing.join(', ')}. ` +
        `Put them there (${LAYOUT}), or unset CONFORMANCE_DIR to run the project's own checks only.`,
    );
  }
  for (const check of on) {
    const read = (fileName: string) => fs.readFileSync(path.join(root, relative(check.spec, fileName)), 'utf8');
    loaded.set(check, check.spec.files.map((fileName) => ({ fileName, contents: read(fileName) })));
  }
  return { on: true, dir: root, checks: on.map((c) => c.spec.name) };
}

/** startOfficialChecks, then the app's one line saying whether the official checks are on, and from where. */
export function announceOfficialChecks(log: Logger, env: NodeJS.ProcessEnv = process.env): OfficialChecksState {
  const state = startOfficialChecks(env);
  if (state.on) log('info', 'official conformance checks on', { conformanceDir: state.dir, checks: state.checks });
  else log('info', "official conformance checks off (CONFORMANCE_DIR unset): the sandbox authorities apply the project's own checks");
  return state;
}

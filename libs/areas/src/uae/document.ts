/**
 * Phase 1 of a UAE document (seed 001 "Errors": field validation, message `Document does not
 * satisfy the regional schema.`): the body at the root or under `document`, unknown keys dropped,
 * `null` members taken as absent, amounts kept as decimal strings, defaults applied.
 */
import type { ZodIssue } from 'zod';
import { withoutNulls } from '../shared/validate';
import { mandatoryFieldIssues, type UaeIssue } from './mandatory';
import { type ParsedUaeDocument, type UaeFlagName, uaeDocumentSchema } from './schema';

// Defined with the hand-written checks that also make them (mandatory.ts).
export type { UaeIssue };

/** The seed's message of a phase-1 refusal. */
export const uaeSchemaMessage = 'Document does not satisfy the regional schema.';

export type UaeDocumentType = '380' | '480' | '381' | '81' | '389' | '261';

type DeepReadonly<T> = T extends readonly (infer E)[] ? readonly DeepReadonly<E>[]
  : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

type Reference = NonNullable<ParsedUaeDocument['document_references']>[number];

/** What phase 1 guarantees beyond the schema: flags filled in, the receiver routed, references identified. */
type Normalised = Omit<ParsedUaeDocument, 'flags' | 'receiving_party' | 'document_references' | 'document_type'> & {
  document_type: UaeDocumentType;
  /** Absent `flags` is all false (seed: both readings described; the rule phase has ibr-154-ae for a malformed code). */
  flags: Record<UaeFlagName, boolean>;
  receiving_party: ParsedUaeDocument['receiving_party'] & { peppol_id: string };
  /** Only entries with a `document_identifier` (seed: the others are accepted and dropped). */
  document_references?: (Reference & { document_identifier: string })[];
};

/**
 * The validated, normalised document: every field of the seed and issue 10's decided names,
 * amounts, quantities and rates as decimal strings (a bare JSON number is converted where the
 * seed accepts one).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface, so that it reads as one in editors and docs
export interface UaeDocument extends DeepReadonly<Normalised> {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `['lines', 0, 'unit_price']` → `lines[0].unit_price`, the path form of every area's errors. */
function pathOf(path: readonly (string | number)[]): string {
  return path.reduce<string>((at, step) => {
    if (typeof step === 'number') return `${at}[${step}]`;
    return at === '' ? step : `${at}.${step}`;
  }, '');
}

function toIssue(i: ZodIssue): UaeIssue {
  return { path: pathOf(i.path), code: i.code, message: i.message, severity: 'error' };
}

/** The document of a Regional API body: under `document` when that key holds an object, else the root. */
function documentOf(body: unknown): unknown {
  return isObject(body) && isObject(body.document) ? body.document : body;
}

function normalise(d: ParsedUaeDocument): UaeDocument {
  const { payee_party: payee, document_references: references, flags, ...rest } = d;
  const hasPayee = payee && Object.values(payee).some((v) => v !== undefined);
  return {
    ...rest,
    ...(hasPayee ? { payee_party: payee } : {}),
    flags: { is_ftz: false, is_deemed: false, is_margin: false, is_summary: false, is_continuous: false, is_dab: false,
      is_ecommerce: false, is_export: false, is_selfbilled: false, ...flags },
    ...(references ? { document_references: references.filter((r): r is Reference & { document_identifier: string } => r.document_identifier !== undefined) } : {}),
  } as UaeDocument;
}

/** Phase 1 (field validation): the body at the root or under `document`; unknown keys dropped. */
export function parseUaeDocument(body: unknown): { readonly document: UaeDocument } | { readonly issues: readonly UaeIssue[] } {
  const raw = withoutNulls(documentOf(body));
  if (!isObject(raw)) {
    return { issues: [{ path: '', code: 'invalid_type', message: `Expected object, received ${Array.isArray(raw) ? 'array' : typeof raw}`, severity: 'error' }] };
  }
  const parsed = uaeDocumentSchema.safeParse(raw);
  const issues = [...(parsed.success ? [] : parsed.error.issues.map(toIssue)), ...mandatoryFieldIssues(raw)];
  if (issues.length > 0 || !parsed.success) return { issues: dedupe(issues) };
  return { document: normalise(parsed.data) };
}

/** One issue per path and code (a field can be reached by the schema and the hand checks alike). */
function dedupe(issues: UaeIssue[]): UaeIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.path}\u0000${i.code}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

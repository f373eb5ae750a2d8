/**
 * Phase 1 of a UAE document (seed 001 "Errors": field validation, message `Document does not
 * satisfy the regional schema.`): the body at the root or under `document`, validated as every
 * area's request is (shared/validate.ts: unknown keys dropped, `null` members taken as absent,
 * every area's codes and paths), amounts kept as decimal strings, defaults applied.
 */
import type { FieldIssue } from '@einvoice/domain';
import { ImpreciseNumber, parseBody } from '../shared/validate';
import { decimalText } from './schema-fields';
import { type UaeFlagName, UaeDocumentBody, UaeUnifiedEnvelope, uncategorisedLineIssues } from './schema';

/** The seed's message of a phase-1 refusal. */
export const uaeSchemaMessage = 'Document does not satisfy the regional schema.';

export type UaeDocumentType = '380' | '480' | '381' | '81' | '389' | '261';

type DeepReadonly<T> = T extends readonly (infer E)[] ? readonly DeepReadonly<E>[]
  : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

type Reference = NonNullable<UaeDocumentBody['document_references']>[number];

/** What phase 1 guarantees beyond the schema: flags filled in, references identified. */
type Normalised = Omit<UaeDocumentBody, 'flags' | 'document_references' | 'document_type'> & {
  document_type: UaeDocumentType;
  /** Absent `flags` is all false (seed: both readings described; the rule phase has ibr-154-ae for a malformed code). */
  flags: Record<UaeFlagName, boolean>;
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

/** The document of a Regional API body: under `document` when that key holds an object, else the root. */
function documentOf(body: unknown): unknown {
  return isObject(body) && isObject(body.document) ? body.document : body;
}

/**
 * The validated DTO as plain data: every number left in it is a decimal taken as a bare number
 * (`Decimal`, the only kind that takes one), written as its decimal string; members the body did not
 * send are left out, also where a compiler defines every class field on the instance.
 */
function plain(value: unknown): unknown {
  if (typeof value === 'number' || value instanceof ImpreciseNumber) return decimalText(value);
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) if (member !== undefined) out[key] = plain(member);
  return out;
}

function normalise(d: UaeDocumentBody): UaeDocument {
  const { payee_party: payee, document_references: references, flags, ...rest } = plain(d) as UaeDocumentBody;
  const hasPayee = payee && Object.keys(payee).length > 0;
  return {
    ...rest,
    ...(hasPayee ? { payee_party: payee } : {}),
    flags: { is_ftz: false, is_deemed: false, is_margin: false, is_summary: false, is_continuous: false, is_dab: false,
      is_ecommerce: false, is_export: false, is_selfbilled: false, ...flags },
    ...(references ? { document_references: references.filter((r): r is Reference & { document_identifier: string } => r.document_identifier !== undefined) } : {}),
  } as UaeDocument;
}

/** Phase 1 (field validation): the body at the root or under `document`; unknown keys dropped. */
export function parseUaeDocument(body: unknown): { readonly document: UaeDocument } | { readonly issues: readonly FieldIssue[] } {
  const raw = documentOf(body);
  const parsed = parseBody(UaeDocumentBody, raw);
  const issues = [...('issues' in parsed ? parsed.issues : []), ...uncategorisedLineIssues(raw)];
  if ('issues' in parsed || issues.length > 0) return { issues };
  return { document: normalise(parsed.value) };
}

/** The Unified API's `country` (the document is then read as the Regional API's): its issues, none when served. */
export function unifiedCountryIssues(body: unknown): readonly FieldIssue[] {
  const parsed = parseBody(UaeUnifiedEnvelope, body);
  return 'issues' in parsed ? parsed.issues : [];
}

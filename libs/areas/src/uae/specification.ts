/**
 * PINT AE 2026.5 specification identifiers (shared/conformance/pint-ae/2026.5/examples) and what
 * the document type code decides: the UBL root, and billing or self-billing (seed "Document
 * header": "The type code decides the rendering"; `is_selfbilled` does not).
 */
import { fullDocumentTypeId, pintAeDocumentTypes } from '../peppol-participants/document-types';
import type { RuleSetId } from '../registry/area';
import type { UaeDocumentType } from './document';

export interface PintAeSpecification {
  readonly customizationId: string;
  readonly profileId: string;
  /** The versioned rule set recorded on documents. */
  readonly ruleSetId: RuleSetId;
}

export const pintAe = {
  billing: { customizationId: 'urn:peppol:pint:billing-1@ae-1', profileId: 'urn:peppol:bis:billing', ruleSetId: 'pint-ae:billing:2026.5' },
  selfbilling: { customizationId: 'urn:peppol:pint:selfbilling-1@ae-1', profileId: 'urn:peppol:bis:selfbilling', ruleSetId: 'pint-ae:selfbilling:2026.5' },
} as const satisfies Record<string, PintAeSpecification>;

/** The rendering a type code selects. */
export interface UaeDocumentKind {
  readonly root: 'Invoice' | 'CreditNote';
  /** 389 and 261: the issuer is the buyer, the receiving party the supplier. */
  readonly selfBilled: boolean;
  readonly specification: PintAeSpecification;
}

const kinds: Record<UaeDocumentType, { root: 'Invoice' | 'CreditNote'; selfBilled: boolean }> = {
  380: { root: 'Invoice', selfBilled: false },
  480: { root: 'Invoice', selfBilled: false },
  389: { root: 'Invoice', selfBilled: true },
  381: { root: 'CreditNote', selfBilled: false },
  81: { root: 'CreditNote', selfBilled: false },
  261: { root: 'CreditNote', selfBilled: true },
};

export function uaeDocumentKind(type: UaeDocumentType): UaeDocumentKind {
  const k = kinds[type];
  return { ...k, specification: k.selfBilled ? pintAe.selfbilling : pintAe.billing };
}

/** The Peppol document type identifier (`scheme::value`) the document is routed with. */
export function uaeDocumentTypeId(kind: UaeDocumentKind): string {
  const root = kind.root === 'Invoice' ? '::Invoice##' : '::CreditNote##';
  const type = pintAeDocumentTypes.find((t) => t.value.includes(`${root}${kind.specification.customizationId}::`));
  if (!type) throw new Error(`No PINT AE document type for ${kind.root} ${kind.specification.customizationId}`);
  return fullDocumentTypeId(type);
}

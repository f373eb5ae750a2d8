/**
 * How the official Schematron applies its rules, kept exactly: the rules come in modes (one per
 * Schematron pattern); in a mode, each element of the document is checked by the FIRST rule whose
 * context matches it (highest priority first), never by a later one. So `cac:PostalAddress`
 * (ibr-128-ae) does not check the seller's and buyer's addresses: their own rule (ibr-143/144-ae)
 * comes first in the same mode.
 */
import type { XmlElement } from '../../shared/xml-read';

/** A broken PINT AE rule, as the seed's phase-2 error names it. */
export interface UaeRuleIssue {
  readonly path: 'Document';
  /** The official rule id, e.g. `ibr-190-ae`. */
  readonly code: string;
  /** The official assert text. */
  readonly message: string;
  readonly severity: 'error';
}

/** What an assert sees besides its context element. */
export interface RuleScope {
  /** The document element (Invoice or CreditNote). */
  readonly root: XmlElement;
  readonly parent: (el: XmlElement) => XmlElement | undefined;
}

export type Assert = readonly [id: string, test: (el: XmlElement, scope: RuleScope) => boolean];

/** A Schematron rule: the elements it matches (by qualified name, or `*`), a finer match, its asserts. */
export interface Template {
  readonly names: readonly string[];
  readonly match?: (el: XmlElement, scope: RuleScope) => boolean;
  readonly asserts: readonly Assert[];
}

/** A Schematron pattern: its rules in priority order. */
export type Mode = readonly Template[];

const qname = (el: XmlElement): string => `${el.ns === CBC ? 'cbc' : el.ns === CAC ? 'cac' : el.ns}:${el.name}`;
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';

/** A mode with its rules indexed by element name, keeping priority order (wildcards merged in place). */
export function compile(mode: Mode): (el: XmlElement) => readonly Template[] {
  const byName = new Map<string, Template[]>();
  const names = new Set(mode.flatMap((t) => t.names.filter((n) => n !== '*')));
  for (const name of names) byName.set(name, mode.filter((t) => t.names.includes(name) || t.names.includes('*')));
  const wildcards = mode.filter((t) => t.names.includes('*'));
  return (el) => byName.get(qname(el)) ?? wildcards;
}

/** Every failed assert id, in document order, each once. */
export function runModes(root: XmlElement, modes: readonly ((el: XmlElement) => readonly Template[])[]): string[] {
  const parents = new Map<XmlElement, XmlElement>();
  const scope: RuleScope = { root, parent: (el) => parents.get(el) };
  const failed = new Set<string>();
  const visit = (el: XmlElement) => {
    for (const templatesOf of modes) {
      for (const template of templatesOf(el)) {
        if (template.match && !template.match(el, scope)) continue;
        for (const [id, test] of template.asserts) if (!failed.has(id) && !test(el, scope)) failed.add(id);
        break;
      }
    }
    for (const child of el.children) {
      parents.set(child, el);
      visit(child);
    }
  };
  visit(root);
  return [...failed];
}

/** `parent` is `name` (`cac:AccountingCustomerParty/cac:Party` matches a Party under that parent). */
export const under = (...chain: string[]) => (el: XmlElement, scope: RuleScope): boolean => {
  let current: XmlElement | undefined = el;
  for (let i = chain.length - 1; i >= 0; i--) {
    current = scope.parent(current as XmlElement);
    if (!current || qname(current) !== chain[i]) return false;
  }
  return true;
};

/** The element is the document element. */
export const isRoot = (el: XmlElement, scope: RuleScope): boolean => el === scope.root;
export { qname };

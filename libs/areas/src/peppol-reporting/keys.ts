/**
 * What the TSR and EUSR documents share: their head (specification ids, header), and their subtotals'
 * and subsets' keys (`metaSchemeID`, `schemeID`, value), layout, and grouping of transmissions under
 * them, each combination of keys once (TSR 1.0.2 and EUSR 1.1.1 §2 "Data Transmission": "Each Subtotal
 * key combination MUST NOT occur more than once").
 */
import { el, toXml, type XmlChild, type XmlNode } from '../shared/xml';
import { REPORTING_SPECIFICATIONS, splitIdentifier } from './identifiers';
import type { ReportingPeriod } from './period';
import type { ReportedTransmission } from './transmissions';

/** One `Key` element. */
export interface ReportKey {
  readonly metaSchemeID: string;
  readonly schemeID: string;
  readonly value: string;
}

/** What both reports' headers say: the period, and who reports it (its Peppol seat id, the AP certificate's subject CN). */
export interface ReportHeader {
  readonly period: ReportingPeriod;
  /** `P` + two letters + six digits (SCH-TSR-18, SCH-EUSR-08). */
  readonly reporterSeatId: string;
}

/** The seat id layout the Schematron checks (SCH-TSR-18, SCH-TSR-19, SCH-EUSR-08). */
export const SEAT_ID = /^P[A-Z]{2}[0-9]{6}$/;

/** `CertSubjectCN`: the only scheme of service provider ids (code list "Reporter ID scheme"). */
export const SEAT_ID_SCHEME = 'CertSubjectCN';

/**
 * The dataset type and process keys (`DT`, `PR`): the identifier's own scheme as `schemeID` and its value,
 * the same in TSR (`PerSP-DT-PR`, `PerSP-DT-PR-CC`) and EUSR (`PerDT-PR`, `PerDT-PR-EUC`, `PerDT-EUC`).
 */
export const documentTypeKey = (t: ReportedTransmission): ReportKey => ({ metaSchemeID: 'DT', ...schemeAndValue(t.documentTypeId) });
export const processKey = (t: ReportedTransmission): ReportKey => ({ metaSchemeID: 'PR', ...schemeAndValue(t.processId) });

function schemeAndValue(identifier: string): { schemeID: string; value: string } {
  const { scheme, value } = splitIdentifier(identifier);
  return { schemeID: scheme, value };
}

/**
 * Groups items under their keys, in a stable order (the keys' text): a report built twice from the same
 * transmissions is the same text.
 */
export function groupBy<T, A>(items: readonly T[], keysOf: (item: T) => readonly ReportKey[] | undefined, start: () => A, add: (acc: A, item: T) => void): Array<{ keys: readonly ReportKey[]; value: A }> {
  const groups = new Map<string, { keys: readonly ReportKey[]; value: A }>();
  for (const item of items) {
    const keys = keysOf(item);
    if (!keys) continue;
    const id = keys.map((k) => `${k.metaSchemeID}\u0000${k.schemeID}\u0000${k.value}`).join('\u0001');
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { keys, value: start() }));
    add(group.value, item);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, group]) => group);
}

/**
 * A TSR or EUSR document as text: its root in its namespace, the CustomizationID and the ProfileID both
 * reports share, the header (period, reporter), then `body` (the totals, then each subtotal or subset
 * as `keyedGroup` writes it).
 */
export function reportDocument(kind: 'tsr' | 'eusr', header: ReportHeader, ...body: XmlChild[]): string {
  const spec = REPORTING_SPECIFICATIONS[kind];
  return toXml(
    el(
      spec.root,
      { xmlns: spec.namespace },
      el('CustomizationID', {}, spec.customizationId),
      el('ProfileID', {}, REPORTING_SPECIFICATIONS.profileId),
      el(
        'Header',
        {},
        el('ReportPeriod', {}, el('StartDate', {}, header.period.startDate), el('EndDate', {}, header.period.endDate)),
        el('ReporterID', { schemeID: SEAT_ID_SCHEME }, header.reporterSeatId),
      ),
      ...body,
    ),
  );
}

/** A TSR `Subtotal` or an EUSR `Subset`: the same layout, its type, its `Key` elements, then its counts. */
export function keyedGroup(name: 'Subtotal' | 'Subset', group: { readonly type: string; readonly keys: readonly ReportKey[] }, counts: readonly XmlNode[]): XmlNode {
  return el(name, { type: group.type }, ...group.keys.map((key) => el('Key', { metaSchemeID: key.metaSchemeID, schemeID: key.schemeID }, key.value)), ...counts);
}

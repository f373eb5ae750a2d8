/**
 * DocumentType → UBL root and type code (BT-3, UNCL1001).
 * BE/DE: the seed's numeric table. The seed lists 381 and 383 twice; 381 is a credit note
 * both times, and 383 is rendered as an Invoice with type code 383 (UNCL1001 "Debit note",
 * the Peppol BIS P0100 invoice list) — the seed's second name "Credit Note (Financial
 * Adjustments)" would be 84/83 in UNCL1001 and is not honoured as a CreditNote.
 * SG: names; `DebitNote` is an Invoice with 383, which PINT SG accepts (ibr-cl-01 list).
 */

/** How a DocumentType value is rendered. */
export interface DocumentType {
  /** The value clients send in `DocumentType`. */
  readonly value: string;
  readonly name: string;
  /** UBL document root. */
  readonly root: 'Invoice' | 'CreditNote';
  /** BT-3. */
  readonly typeCode: string;
}

const inv = (value: string, name: string): DocumentType => ({ value, name, root: 'Invoice', typeCode: value });
const cn = (value: string, name: string): DocumentType => ({ value, name, root: 'CreditNote', typeCode: value });

/** Belgium and Germany (seed table). */
export const bisDocumentTypes: readonly DocumentType[] = [
  inv('71', 'Request for Payment'),
  inv('80', 'Debit Note (Goods/Services)'),
  inv('82', 'Metered Services Invoice'),
  inv('84', 'Debit Note (Financial Adjustments)'),
  inv('102', 'Tax Notification'),
  inv('218', 'Final Payment Request'),
  inv('219', 'Payment Request for Completed Units'),
  inv('380', 'Commercial Invoice'),
  inv('383', 'Debit Note'),
  inv('386', 'Prepayment Invoice'),
  inv('388', 'Tax Invoice'),
  inv('393', 'Factored Invoice'),
  inv('395', 'Consignment Invoice'),
  inv('780', 'Freight Invoice'),
  inv('870', 'Consular Invoice'),
  inv('875', 'Partial Construction Invoice'),
  inv('876', 'Partial Final Construction Invoice'),
  inv('877', 'Final Construction Invoice'),
  cn('381', 'Credit Note'),
  cn('396', 'Factored Credit Note'),
  cn('532', "Forwarder's Credit Note"),
];

/** Singapore (seed names). */
export const sgDocumentTypes: readonly DocumentType[] = [
  { value: 'Invoice', name: 'Tax invoice', root: 'Invoice', typeCode: '380' },
  { value: 'CreditNote', name: 'Credit note', root: 'CreditNote', typeCode: '381' },
  { value: 'DebitNote', name: 'Debit note', root: 'Invoice', typeCode: '383' },
];

/** The entry for `value`, or undefined when the area does not know it. */
export function findDocumentType(table: readonly DocumentType[], value: string): DocumentType | undefined {
  return table.find((t) => t.value === value);
}

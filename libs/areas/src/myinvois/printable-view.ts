/**
 * A MyInvois document as people read it (#49), read from the document MyInvois validated (submitted-document.ts:
 * its JSON or XML as one element tree), in the MyInvois profile of UBL 2.1 (LHDN MyInvois SDK "Invoice v1.0"):
 * parties by their TIN, BRN / NRIC / passport / army id, SST and tourism tax numbers and MSIC code, addresses with
 * their state; every line with its classification and each of its taxes (a line may carry several, by rate or per
 * unit); the breakdown per tax type; the totals as the document states them; prepayments, payment mode and terms;
 * the documents it refers to. Labels in English. Amounts as written (the JSON form's numbers with two decimals).
 */
import { type XmlElement, all, first, textAt } from '../shared/xml-read';
import type { PrintableDocument, PrintableLine, PrintableMark, PrintableParty, PrintableReference, PrintableTaxRow } from '../registry/printable';
import { allowanceChargeOf, documentTaxTotalOf, monetaryTotalsOf } from '../printable/from-ubl';
import { DOCUMENT_TYPE_NAMES, PAYMENT_MODE_NAMES, STATE_NAMES, TAX_TYPE_NAMES } from './code-names';

/** What the view adds to the document: the mark, the attached Peppol copy, references of its own (the validation link). */
export interface MyInvoisViewOptions {
  readonly mark?: PrintableMark;
  readonly attachment?: { readonly filename: string; readonly xml: string };
  readonly references?: readonly PrintableReference[];
}

/** Identification schemes as printed (`PartyIdentification/ID@schemeID`). */
const SCHEME_LABELS: Readonly<Record<string, string>> = { TIN: 'TIN', BRN: 'BRN', NRIC: 'NRIC', PASSPORT: 'Passport', ARMY: 'Army ID', SST: 'SST', TTX: 'Tourism tax' };

/** `NA`: MyInvois's "not applicable" (a buyer with no SST number, the general public's address): not printed. */
const given = (value: string | undefined): value is string => Boolean(value) && value !== 'NA';

/** The view of a submitted document's root element. */
export function myInvoisView(root: XmlElement, options: MyInvoisViewOptions = {}): PrintableDocument {
  const typeCode = textAt(root, 'InvoiceTypeCode');
  const currency = textAt(root, 'DocumentCurrencyCode') ?? 'MYR';
  const taxTotals = all(root, 'TaxTotal');
  const documentTax = documentTaxTotalOf(taxTotals, currency);
  // A document in another currency states its rate to MYR (TaxExchangeRate); where it also states its tax in MYR (a second TaxTotal), that is printed too.
  const myrTax = currency !== 'MYR' ? taxTotals.find((t) => t !== documentTax && first(t, 'TaxAmount')?.attrs.currencyID === 'MYR') : undefined;
  return {
    title: DOCUMENT_TYPE_NAMES[typeCode ?? ''] ?? 'e-Invoice',
    number: textAt(root, 'ID') ?? '',
    typeCode,
    issueDate: textAt(root, 'IssueDate'),
    dueDate: textAt(root, 'PaymentMeans', 'PaymentDueDate'),
    dates: datesOf(root),
    issuer: partyOf(first(root, 'AccountingSupplierParty', 'Party')),
    buyer: first(root, 'AccountingCustomerParty', 'Party') ? partyOf(first(root, 'AccountingCustomerParty', 'Party')) : undefined,
    lines: all(root, 'InvoiceLine').map(lineOf),
    taxes: all(documentTax, 'TaxSubtotal').map(taxRowOf),
    totals: monetaryTotalsOf(root, currency, documentTax),
    otherTotals: myrTax ? { currency: 'MYR', tax: textAt(myrTax, 'TaxAmount') } : undefined,
    payment: paymentOf(root, currency),
    notes: all(root, 'Note').map((n) => n.text.trim()).filter(Boolean),
    references: [...referencesOf(root, currency), ...(options.references ?? [])],
    languages: ['en'],
    mark: options.mark,
    attachment: options.attachment,
  };
}

function partyOf(party: XmlElement | undefined): PrintableParty {
  const identifiers = all(party, 'PartyIdentification', 'ID')
    .filter((id) => given(id.text.trim()))
    .map((id) => ({ label: SCHEME_LABELS[id.attrs.schemeID ?? ''] ?? id.attrs.schemeID ?? 'ID', value: id.text.trim() }));
  const msic = first(party, 'IndustryClassificationCode');
  if (given(msic?.text.trim())) identifiers.push({ label: 'MSIC', value: [msic!.text.trim(), msic!.attrs.name].filter(given).join(' ') });
  for (const [name, labelText] of [['Telephone', 'Tel.'], ['ElectronicMail', 'Email']] as const) {
    const value = textAt(party, 'Contact', name);
    if (given(value)) identifiers.push({ label: labelText, value });
  }
  const address = first(party, 'PostalAddress');
  const state = textAt(address, 'CountrySubentityCode');
  return {
    name: textAt(party, 'PartyLegalEntity', 'RegistrationName') ?? textAt(party, 'PartyName', 'Name') ?? '',
    identifiers,
    address: [
      ...all(address, 'AddressLine', 'Line').map((l) => l.text.trim()),
      [textAt(address, 'PostalZone'), textAt(address, 'CityName')].filter(given).join(' '),
      state ? (STATE_NAMES[state] ?? state) : undefined,
      textAt(address, 'Country', 'IdentificationCode'),
    ].filter(given),
  };
}

/** One tax of a line or of the breakdown: `02 6 %`, `03 10.00 per C62`, `E`. */
function taxText(subtotal: XmlElement): string {
  const id = textAt(subtotal, 'TaxCategory', 'ID') ?? '';
  const percent = textAt(subtotal, 'Percent');
  const perUnit = textAt(subtotal, 'PerUnitAmount');
  if (perUnit) return `${id} ${perUnit} × ${textAt(subtotal, 'BaseUnitMeasure') ?? ''} ${first(subtotal, 'BaseUnitMeasure')?.attrs.unitCode ?? ''}`.trim();
  return percent !== undefined ? `${id} ${percent} %` : id;
}

function lineOf(line: XmlElement): PrintableLine {
  const quantity = first(line, 'InvoicedQuantity');
  const item = first(line, 'Item');
  const classes = all(item, 'CommodityClassification', 'ItemClassificationCode').map((c) => c.text.trim()).filter(Boolean);
  const description = [textAt(item, 'Name'), textAt(item, 'Description')].filter(Boolean).filter((text, i, both) => both.indexOf(text) === i).join(' — ');
  const taxes = all(line, 'TaxTotal', 'TaxSubtotal');
  // One tax: its type and rate in the columns; several (a line may carry sales tax and tourism tax), each in full.
  const single = taxes.length === 1 && !textAt(taxes[0], 'PerUnitAmount') ? taxes[0] : undefined;
  return {
    description: `${description}${classes.length ? ` (classification ${classes.join(', ')})` : ''}`,
    quantity: quantity?.text.trim() ?? '',
    unit: quantity?.attrs.unitCode,
    unitPrice: textAt(line, 'Price', 'PriceAmount') ?? '',
    discounts: all(line, 'AllowanceCharge').map(allowanceChargeOf),
    taxCategory: single ? textAt(single, 'TaxCategory', 'ID') : taxes.map(taxText).join('\n'),
    taxRate: single ? textAt(single, 'Percent') : undefined,
    amount: textAt(line, 'LineExtensionAmount') ?? '',
  };
}

function taxRowOf(subtotal: XmlElement): PrintableTaxRow {
  const id = textAt(subtotal, 'TaxCategory', 'ID') ?? '';
  const reason = textAt(subtotal, 'TaxCategory', 'TaxExemptionReason');
  const perUnit = textAt(subtotal, 'PerUnitAmount');
  const name = [id, TAX_TYPE_NAMES[id]].filter(Boolean).join(' ');
  return {
    category: `${name}${perUnit ? ` (${taxText(subtotal).slice(id.length + 1)})` : ''}${reason ? `: ${reason}` : ''}`,
    rate: perUnit ? undefined : textAt(subtotal, 'Percent'),
    taxable: textAt(subtotal, 'TaxableAmount') ?? '',
    tax: textAt(subtotal, 'TaxAmount') ?? '',
  };
}

function paymentOf(root: XmlElement, currency: string): string[] {
  const lines = all(root, 'PaymentMeans').map((means) => {
    const code = textAt(means, 'PaymentMeansCode') ?? '';
    const account = textAt(means, 'PayeeFinancialAccount', 'ID');
    return [PAYMENT_MODE_NAMES[code] ?? code, account && `account ${account}`].filter(Boolean).join(', ');
  });
  for (const terms of all(root, 'PaymentTerms', 'Note')) if (terms.text.trim()) lines.push(terms.text.trim());
  for (const paid of all(root, 'PrepaidPayment')) {
    const when = [textAt(paid, 'PaidDate'), textAt(paid, 'PaidTime')].filter(Boolean).join(' ');
    const reference = textAt(paid, 'ID');
    lines.push(`Prepaid ${textAt(paid, 'PaidAmount') ?? ''} ${currency}${when ? ` on ${when}` : ''}${reference ? `, reference ${reference}` : ''}`);
  }
  for (const charge of all(root, 'AllowanceCharge')) lines.push(`${textAt(charge, 'ChargeIndicator') === 'true' ? 'Charge' : 'Allowance'} ${allowanceChargeOf(charge)}`);
  return lines;
}

function datesOf(root: XmlElement): PrintableReference[] {
  const dates: PrintableReference[] = [];
  const time = textAt(root, 'IssueTime');
  if (time) dates.push({ label: 'Issue time', value: time });
  const start = textAt(root, 'InvoicePeriod', 'StartDate');
  const end = textAt(root, 'InvoicePeriod', 'EndDate');
  if (start || end) dates.push({ label: 'Billing period', value: `${start ?? ''} – ${end ?? ''}` });
  return dates;
}

function referencesOf(root: XmlElement, currency: string): PrintableReference[] {
  const references: PrintableReference[] = [];
  // The invoice a credit, debit or refund note adjusts: its number and MyInvois's uuid of it.
  for (const billing of all(root, 'BillingReference', 'InvoiceDocumentReference')) {
    const uuid = textAt(billing, 'UUID');
    references.push({ label: 'Original e-Invoice', value: `${textAt(billing, 'ID') ?? ''}${uuid ? ` (MyInvois UUID ${uuid})` : ''}` });
  }
  for (const document of all(root, 'AdditionalDocumentReference')) {
    const id = textAt(document, 'ID');
    if (id) references.push({ label: textAt(document, 'DocumentType') ?? 'Document', value: id });
  }
  const rate = textAt(root, 'TaxExchangeRate', 'CalculationRate');
  if (rate && currency !== 'MYR') references.push({ label: 'Exchange rate', value: `1 ${currency} = ${rate} ${textAt(root, 'TaxExchangeRate', 'TargetCurrencyCode') ?? 'MYR'}` });
  const incoterms = textAt(root, 'DeliveryTerms', 'ID');
  if (incoterms) references.push({ label: 'Incoterms', value: incoterms });
  const recipient = first(root, 'Delivery', 'DeliveryParty');
  if (recipient) {
    const party = partyOf(recipient);
    references.push({ label: 'Delivered to', value: [party.name, ...party.identifiers.map((i) => `${i.label} ${i.value}`), ...party.address].join(', ') });
  }
  const shipment = first(root, 'Delivery', 'Shipment');
  if (given(textAt(shipment, 'ID'))) references.push({ label: 'Shipment', value: textAt(shipment, 'ID')! });
  for (const charge of all(shipment, 'FreightAllowanceCharge')) references.push({ label: 'Shipment charge', value: allowanceChargeOf(charge) });
  return references;
}

/**
 * The printable view of a UBL 2.1 Invoice or CreditNote (#49): what every Peppol layer renders (BIS 3.0
 * for BE/DE, PINT SG, PINT AE, PINT MY copies) read back from the legal XML itself, so the printed copy
 * says what the delivered document says, amounts as written (EN 16931 business terms cited). One reader
 * for every UBL area, sent and received (a received document is printed from what its sender wrote).
 */
import { AppError } from '@einvoice/domain';
import { type XmlElement, all, first, parseXml, textAt } from '../shared/xml-read';
import type {
  PrintableDocument,
  PrintableIdentifier,
  PrintableLanguage,
  PrintableLine,
  PrintableMark,
  PrintableParty,
  PrintableReference,
  PrintableTaxRow,
  PrintableCapability,
  StoredDocument,
} from '../registry/printable';
import { type LabelKey, label } from './labels';

/** How an area prints its UBL documents. */
export interface UblPrintOptions {
  readonly languages: readonly PrintableLanguage[];
  /** What the seller's tax identifier is called (BT-31: `VAT`; UAE `TRN`; Singapore `GST`). */
  readonly taxIdLabel?: string;
  /** The title of an invoice where the law names it (UAE: "Tax invoice"), default "Invoice". */
  readonly invoiceTitle?: LabelKey;
  readonly mark?: PrintableMark;
  /** Attach the UBL to the PDF (PDF/A-3), named after the document number (`xmlFileName`). */
  readonly attach?: boolean;
  /**
   * The total with tax in the tax currency (BT-6), where the area's documents state it outside EN 16931's terms
   * (UAE: BTAE-20, the `aedtotal-incl-vat` reference): printed with the tax total in that currency.
   */
  readonly taxCurrencyTotalWithTax?: (root: XmlElement) => string | undefined;
}

/** UNCL 4461 payment means names (the codes Peppol documents use). */
const PAYMENT_MEANS: Readonly<Record<string, string>> = {
  '1': 'Not defined', '10': 'Cash', '20': 'Cheque', '30': 'Credit transfer', '31': 'Debit transfer', '42': 'Payment to bank account',
  '48': 'Bank card', '49': 'Direct debit', '54': 'Credit card', '55': 'Debit card', '57': 'Standing agreement', '58': 'SEPA credit transfer',
  '59': 'SEPA direct debit', '68': 'Online payment service', '97': 'Clearing between partners', 'ZZZ': 'Mutually defined',
};

/** The TaxTotal in the document currency (BT-110), else the first. */
export function documentTaxTotalOf(taxTotals: readonly XmlElement[], currency: string): XmlElement | undefined {
  return taxTotals.find((t) => first(t, 'TaxAmount')?.attrs.currencyID === currency) ?? taxTotals[0];
}

/** The totals as a UBL document states them (LegalMonetaryTotal, BG-22), its tax total that of `documentTax`. */
export function monetaryTotalsOf(root: XmlElement, currency: string, documentTax: XmlElement | undefined): PrintableDocument['totals'] {
  const totals = first(root, 'LegalMonetaryTotal');
  const amount = (name: string) => textAt(totals, name);
  return {
    currency,
    net: amount('LineExtensionAmount'),
    allowances: amount('AllowanceTotalAmount'),
    charges: amount('ChargeTotalAmount'),
    taxExclusive: amount('TaxExclusiveAmount'),
    tax: textAt(documentTax, 'TaxAmount'),
    taxInclusive: amount('TaxInclusiveAmount'),
    prepaid: amount('PrepaidAmount'),
    rounding: amount('PayableRoundingAmount'),
    payable: amount('PayableAmount') ?? '',
  };
}

/** The view of `xml`. @throws XmlSyntaxError when it is no XML (a stored document always is). */
export function printableFromUbl(xml: string, options: UblPrintOptions): PrintableDocument {
  const root = parseXml(xml);
  const credit = root.name === 'CreditNote';
  const typeCode = textAt(root, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode');
  const currency = textAt(root, 'DocumentCurrencyCode') ?? '';
  const titleKey: LabelKey = credit || typeCode === '381' ? 'creditNote' : typeCode === '383' ? 'debitNote' : (options.invoiceTitle ?? 'invoice');
  const taxCurrency = textAt(root, 'TaxCurrencyCode');
  const taxTotals = all(root, 'TaxTotal');
  // BT-110 is the TaxTotal with subtotals in the document currency; BT-111 the one in the tax currency (BT-6).
  const documentTax = documentTaxTotalOf(taxTotals, currency);
  const otherTax = taxCurrency && taxCurrency !== currency ? taxTotals.find((t) => first(t, 'TaxAmount')?.attrs.currencyID === taxCurrency) : undefined;
  return {
    title: label(titleKey, options.languages),
    number: textAt(root, 'ID') ?? '',
    typeCode,
    issueDate: textAt(root, 'IssueDate'),
    dueDate: textAt(root, 'DueDate') ?? textAt(root, 'PaymentMeans', 'PaymentDueDate'),
    dates: datesOf(root),
    issuer: partyOf(first(root, 'AccountingSupplierParty', 'Party'), options.taxIdLabel ?? 'VAT'),
    buyer: first(root, 'AccountingCustomerParty', 'Party') ? partyOf(first(root, 'AccountingCustomerParty', 'Party'), options.taxIdLabel ?? 'VAT') : undefined,
    lines: all(root, credit ? 'CreditNoteLine' : 'InvoiceLine').map((line) => lineOf(line, credit)),
    taxes: all(documentTax, 'TaxSubtotal').map(taxRowOf),
    totals: monetaryTotalsOf(root, currency, documentTax),
    otherTotals: otherTax && taxCurrency
      ? { currency: taxCurrency, tax: textAt(otherTax, 'TaxAmount'), taxInclusive: options.taxCurrencyTotalWithTax?.(root), rate: taxExchangeRate(root, currency, taxCurrency) }
      : undefined,
    payment: paymentOf(root),
    notes: all(root, 'Note').map((n) => n.text.trim()).filter(Boolean),
    references: referencesOf(root),
    languages: options.languages,
    mark: options.mark,
    attachment: options.attach ? { filename: xmlFileName(textAt(root, 'ID') ?? ''), xml } : undefined,
  };
}

/**
 * The rate the tax currency's amounts were converted at (`cac:TaxExchangeRate`, PINT AE IBT-007's rate): units of the
 * tax currency per unit of the document's, where the document states it that way round (multiplied, the default).
 */
function taxExchangeRate(root: XmlElement, currency: string, taxCurrency: string): string | undefined {
  const rate = first(root, 'TaxExchangeRate');
  if (!rate || textAt(rate, 'SourceCurrencyCode') !== currency || textAt(rate, 'TargetCurrencyCode') !== taxCurrency) return undefined;
  if ((textAt(rate, 'MathematicOperatorCode') ?? 'Multiply') !== 'Multiply') return undefined;
  return textAt(rate, 'CalculationRate');
}

function partyOf(party: XmlElement | undefined, taxIdLabel: string): PrintableParty {
  const identifiers: PrintableIdentifier[] = [];
  for (const tax of all(party, 'PartyTaxScheme')) {
    const value = textAt(tax, 'CompanyID');
    // BT-31 (VAT) or BT-32 (the seller's tax registration under another scheme).
    if (value) identifiers.push({ label: textAt(tax, 'TaxScheme', 'ID') === 'VAT' ? taxIdLabel : 'Tax ID', value });
  }
  const legal = textAt(party, 'PartyLegalEntity', 'CompanyID');
  if (legal) identifiers.push({ label: 'Registration', value: scheme(first(party, 'PartyLegalEntity', 'CompanyID'), legal) });
  for (const id of all(party, 'PartyIdentification', 'ID')) {
    const value = id.text.trim();
    if (value && !identifiers.some((i) => i.value === value)) identifiers.push({ label: 'ID', value: scheme(id, value) });
  }
  const endpoint = first(party, 'EndpointID');
  if (endpoint?.text.trim()) identifiers.push({ label: 'Peppol', value: scheme(endpoint, endpoint.text.trim()) });
  const address = first(party, 'PostalAddress');
  const cityLine = [textAt(address, 'PostalZone'), textAt(address, 'CityName')].filter(Boolean).join(' ');
  return {
    // BT-27/BT-44 (legal name) first; BT-28/BT-45 (trading name) where it is the only one.
    name: textAt(party, 'PartyLegalEntity', 'RegistrationName') ?? textAt(party, 'PartyName', 'Name') ?? '',
    identifiers,
    address: [
      textAt(address, 'StreetName'),
      textAt(address, 'AdditionalStreetName'),
      ...all(address, 'AddressLine', 'Line').map((l) => l.text.trim()),
      cityLine,
      textAt(address, 'CountrySubentity'),
      textAt(address, 'Country', 'IdentificationCode'),
    ].filter((line): line is string => Boolean(line)),
  };
}

const scheme = (el: XmlElement | undefined, value: string) => (el?.attrs.schemeID ? `${el.attrs.schemeID}:${value}` : value);

function lineOf(line: XmlElement, credit: boolean): PrintableLine {
  const quantity = first(line, credit ? 'CreditedQuantity' : 'InvoicedQuantity');
  const item = first(line, 'Item');
  const category = first(item, 'ClassifiedTaxCategory');
  const baseQuantity = textAt(line, 'Price', 'BaseQuantity');
  const name = textAt(item, 'Name') ?? '';
  const description = textAt(item, 'Description');
  return {
    description: description && description !== name ? `${name} — ${description}` : name,
    quantity: quantity?.text.trim() ?? '',
    unit: quantity?.attrs.unitCode,
    // BT-146 per BT-149 units where the price is for more than one.
    unitPrice: (textAt(line, 'Price', 'PriceAmount') ?? '') + (baseQuantity && baseQuantity !== '1' ? ` / ${baseQuantity}` : ''),
    discounts: all(line, 'AllowanceCharge').map(allowanceChargeOf),
    taxCategory: textAt(category, 'ID'),
    taxRate: textAt(category, 'Percent'),
    amount: textAt(line, 'LineExtensionAmount') ?? '',
  };
}

/** BG-27/BG-28 (line) and BG-20/BG-21 (document): `-12.00 Loyalty discount`, `+5.00 Freight`. */
export function allowanceChargeOf(el: XmlElement): string {
  const charge = textAt(el, 'ChargeIndicator') === 'true';
  const reason = textAt(el, 'AllowanceChargeReason') ?? textAt(el, 'AllowanceChargeReasonCode') ?? '';
  return `${charge ? '+' : '-'}${textAt(el, 'Amount') ?? ''}${reason ? ` ${reason}` : ''}`;
}

function taxRowOf(subtotal: XmlElement): PrintableTaxRow {
  return {
    category: textAt(subtotal, 'TaxCategory', 'ID') ?? '',
    rate: textAt(subtotal, 'TaxCategory', 'Percent'),
    taxable: textAt(subtotal, 'TaxableAmount') ?? '',
    tax: textAt(subtotal, 'TaxAmount') ?? '',
  };
}

function paymentOf(root: XmlElement): string[] {
  const lines = all(root, 'PaymentMeans').map((means) => {
    const code = first(means, 'PaymentMeansCode');
    const name = code?.attrs.name ?? PAYMENT_MEANS[code?.text.trim() ?? ''] ?? code?.text.trim() ?? '';
    const account = textAt(means, 'PayeeFinancialAccount', 'ID');
    const bank = textAt(means, 'PayeeFinancialAccount', 'FinancialInstitutionBranch', 'ID');
    const reference = textAt(means, 'PaymentID');
    return [name, account && `account ${account}`, bank && `BIC ${bank}`, reference && `reference ${reference}`].filter(Boolean).join(', ');
  });
  for (const terms of all(root, 'PaymentTerms', 'Note')) if (terms.text.trim()) lines.push(terms.text.trim());
  for (const charge of all(root, 'AllowanceCharge')) lines.push(`${textAt(charge, 'ChargeIndicator') === 'true' ? 'Charge' : 'Allowance'} ${allowanceChargeOf(charge)}`);
  return lines;
}

function datesOf(root: XmlElement): PrintableReference[] {
  const dates: PrintableReference[] = [];
  const delivered = textAt(root, 'Delivery', 'ActualDeliveryDate');
  if (delivered) dates.push({ label: 'Delivery date', value: delivered });
  const start = textAt(root, 'InvoicePeriod', 'StartDate');
  const end = textAt(root, 'InvoicePeriod', 'EndDate');
  if (start || end) dates.push({ label: 'Period', value: `${start ?? ''} – ${end ?? ''}` });
  const taxPoint = textAt(root, 'TaxPointDate');
  if (taxPoint) dates.push({ label: 'Tax point date', value: taxPoint });
  return dates;
}

function referencesOf(root: XmlElement): PrintableReference[] {
  const references: PrintableReference[] = [];
  // BT-25/BT-26: the invoice a credit note corrects.
  for (const billing of all(root, 'BillingReference', 'InvoiceDocumentReference')) {
    const date = textAt(billing, 'IssueDate');
    references.push({ label: 'Corrects invoice', value: `${textAt(billing, 'ID') ?? ''}${date ? ` (${date})` : ''}` });
  }
  const add = (labelText: string, value: string | undefined) => value && references.push({ label: labelText, value });
  add('Buyer reference', textAt(root, 'BuyerReference'));
  add('Order', textAt(root, 'OrderReference', 'ID'));
  add('Contract', textAt(root, 'ContractDocumentReference', 'ID'));
  add('Project', textAt(root, 'ProjectReference', 'ID'));
  return references;
}

/** A file name for the attached XML: the document number's safe characters (`INV-2026-0001.xml`). */
export function xmlFileName(number: string): string {
  return `${number.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'document'}.xml`;
}

/**
 * The `printable` capability of an area whose documents are UBL (BE, DE, SG, UAE): the view read from the
 * document's XML as its XML route serves it, attached to the PDF (PDF/A-3, Source), and the area's mark.
 */
export function ublPrintable(options: Omit<UblPrintOptions, 'attach' | 'mark'> & { readonly mark?: (document: StoredDocument) => PrintableMark | undefined }): PrintableCapability {
  return {
    readsXml: true,
    build(document) {
      if (!document.xml) throw new AppError('internal', 'DOCUMENT.NO_FILE', `Document ${document.id} has no UBL to print.`);
      return printableFromUbl(document.xml, { ...options, mark: options.mark?.(document), attach: true });
    },
  };
}

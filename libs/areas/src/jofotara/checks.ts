/**
 * What JoFotara checks of an invoice it is sent, as its answers show it (ISTD guide v1.4; the SDK's
 * tests; README.md "Sandbox"): read from the XML itself, so the sandbox and the tests' wire-format fake
 * judge the bytes that were sent, not what the gateway meant. Errors carry JoFotara's `EINV_CODE`s
 * (`totalInclusiveAmount`, `totalPayableAmount`, `totalSpecialTaxesAmount`, ...).
 */
import { Dec } from '../shared/money';
import { all, first, parseXml, textAt, XmlSyntaxError, type XmlElement } from '../shared/xml-read';
import { STANDARD_RATES, round3 } from './invoice';

export interface JofotaraMessage {
  readonly type: 'ERROR' | 'WARNING' | 'INFO';
  readonly status: 'ERROR' | 'PASS';
  readonly EINV_CODE: string;
  readonly EINV_CATEGORY: string;
  readonly EINV_MESSAGE: string;
}

export interface ReadInvoice {
  readonly id: string;
  readonly uuid: string;
  readonly typeCode: string;
  /** `InvoiceTypeCode@name`: payment and class. */
  readonly typeName: string;
  readonly tin: string;
  readonly sellerName: string;
  readonly incomeSource: string;
  readonly issueDate: string;
  readonly payable: string;
  readonly tax: string;
  readonly lines: ReadonlyArray<{ readonly id: string; readonly quantity: number }>;
  readonly original?: { readonly id: string; readonly uuid: string };
}

/** The trimmed text at a path of local names ('' when absent): JoFotara reads the UBL by its element names. */
const text = (el: XmlElement | undefined, ...path: string[]): string => textAt(el, ...path) ?? '';
const error = (code: string, message: string, category = 'Business rules'): JofotaraMessage => ({ type: 'ERROR', status: 'ERROR', EINV_CODE: code, EINV_CATEGORY: category, EINV_MESSAGE: message });

/** The invoice as JoFotara reads it, and what is wrong with it. */
export function checkInvoiceXml(xml: string): { invoice?: ReadInvoice; errors: JofotaraMessage[] } {
  let doc: XmlElement;
  try {
    doc = parseXml(xml);
  } catch (e) {
    if (!(e instanceof XmlSyntaxError)) throw e;
    return { errors: [error('XSD_INVALID', `The invoice is not well-formed XML: ${e.message}`, 'XSD validation')] };
  }
  if (doc.name !== 'Invoice') return { errors: [error('XSD_INVALID', 'The document is not a UBL 2.1 Invoice.', 'XSD validation')] };
  const errors: JofotaraMessage[] = [];
  const typeName = first(doc, 'InvoiceTypeCode')?.attrs.name ?? '';
  const taxed = !typeName.endsWith('1');
  const special = typeName.endsWith('3');
  let taxExclusive = new Dec(0);
  let allowances = new Dec(0);
  let taxes = new Dec(0);
  let specials = new Dec(0);
  const lines = all(doc, 'InvoiceLine').map((line) => {
    const id = text(line, 'ID');
    const quantity = Number(text(line, 'InvoicedQuantity'));
    const price = new Dec(text(line, 'Price', 'PriceAmount') || 0);
    const discount = new Dec(text(line, 'Price', 'AllowanceCharge', 'Amount') || 0);
    const gross = round3(price.times(quantity));
    const net = gross.minus(discount);
    if (!round3(text(line, 'LineExtensionAmount') || 0).equals(net)) errors.push(error('lineExtensionAmount', `Line ${id}: LineExtensionAmount must be price × quantity − discount = ${net.toFixed(3)}.`));
    taxExclusive = taxExclusive.plus(gross);
    allowances = allowances.plus(discount);
    if (!taxed && first(line, 'TaxTotal')) errors.push(error('incomeInvoiceTax', `Line ${id}: an income invoice carries no tax.`));
    for (const subtotal of all(line, 'TaxTotal', 'TaxSubtotal')) {
      const category = text(subtotal, 'TaxCategory', 'ID');
      const scheme = text(subtotal, 'TaxCategory', 'TaxScheme', 'ID');
      const percent = Number(text(subtotal, 'TaxCategory', 'Percent') || 0);
      const amount = new Dec(text(subtotal, 'TaxAmount') || 0);
      if (scheme === 'OTH') {
        if (!special) errors.push(error('totalSpecialTaxesAmount', `Line ${id}: only special-sales invoices carry special tax.`));
        specials = specials.plus(amount);
        continue;
      }
      if (category === 'S' && !STANDARD_RATES.some((r) => Math.abs(r * 100 - percent) < 1e-9)) errors.push(error('taxRate', `Line ${id}: ${percent} is not a general-sales tax rate (${STANDARD_RATES.map((r) => r * 100).join(', ')}).`));
      if ((category === 'Z' || category === 'O') && percent !== 0) errors.push(error('taxRate', `Line ${id}: category ${category} takes 0 %.`));
      const expected = round3(net.times(percent).dividedBy(100));
      if (!amount.equals(expected)) errors.push(error('lineTaxAmount', `Line ${id}: TaxAmount must be ${expected.toFixed(3)}.`));
      taxes = taxes.plus(amount);
    }
    return { id, quantity };
  });
  if (!lines.length) errors.push(error('invoiceLines', 'An invoice has at least one line.'));
  const total = first(doc, 'LegalMonetaryTotal');
  const inclusive = taxExclusive.minus(allowances).plus(taxes).plus(specials);
  if (!round3(text(total, 'TaxExclusiveAmount') || 0).equals(taxExclusive)) errors.push(error('totalExclusiveAmount', `TaxExclusiveAmount must be ${taxExclusive.toFixed(3)} (Σ price × quantity, before discounts).`));
  if (!round3(text(total, 'AllowanceTotalAmount') || 0).equals(allowances)) errors.push(error('totalDiscountAmount', `AllowanceTotalAmount must be ${allowances.toFixed(3)} (Σ line discounts).`));
  if (!round3(text(total, 'TaxInclusiveAmount') || 0).equals(inclusive)) errors.push(error('totalInclusiveAmount', `TaxInclusiveAmount must be ${inclusive.toFixed(3)}.`));
  if (!round3(text(total, 'PayableAmount') || 0).equals(inclusive)) errors.push(error('totalPayableAmount', `PayableAmount must be ${inclusive.toFixed(3)}.`));
  if (special && !round3(text(doc, 'TaxTotal', 'TaxAmount') || 0).equals(taxes.plus(specials))) errors.push(error('totalSpecialTaxesAmount', `TaxTotal must include the special taxes: ${taxes.plus(specials).toFixed(3)}.`));
  const reference = first(doc, 'BillingReference', 'InvoiceDocumentReference');
  const invoice: ReadInvoice = {
    id: text(doc, 'ID'),
    uuid: text(doc, 'UUID'),
    typeCode: text(doc, 'InvoiceTypeCode'),
    typeName,
    tin: text(doc, 'AccountingSupplierParty', 'Party', 'PartyTaxScheme', 'CompanyID'),
    sellerName: text(doc, 'AccountingSupplierParty', 'Party', 'PartyLegalEntity', 'RegistrationName'),
    incomeSource: text(doc, 'SellerSupplierParty', 'Party', 'PartyIdentification', 'ID'),
    issueDate: text(doc, 'IssueDate'),
    payable: inclusive.toFixed(3),
    tax: taxes.plus(specials).toFixed(3),
    lines,
    ...(reference ? { original: { id: text(reference, 'ID'), uuid: text(reference, 'UUID') } } : {}),
  };
  if (!invoice.id || !invoice.uuid) errors.push(error('XSD_INVALID', 'ID and UUID are mandatory.', 'XSD validation'));
  if (!['388', '381'].includes(invoice.typeCode) || !/^0[12][123]$/.test(typeName)) errors.push(error('invoiceType', `InvoiceTypeCode ${invoice.typeCode} name ${typeName} is not a JoFotara invoice type.`));
  return { invoice, errors };
}

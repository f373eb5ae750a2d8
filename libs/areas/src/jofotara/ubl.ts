/**
 * The UBL 2.1 Invoice in JoFotara's profile (ISTD technical guide v1.4, README.md "Rendering"), in the
 * guide's element order (which is UBL's): ID, UUID, IssueDate, IssueTime, InvoiceTypeCode (388 invoice,
 * 381 credit note; `name` = payment and class), Note, DocumentCurrencyCode and TaxCurrencyCode `JOD`,
 * BillingReference (credit notes), AdditionalDocumentReference ICV, the seller, the buyer, the income
 * source (SellerSupplierParty), PaymentMeans (credit notes: the reason), the document allowance (the sum
 * of the line discounts), TaxTotal, LegalMonetaryTotal, the lines. Amounts carry `currencyID="JO"` as
 * JoFotara writes them; income invoices carry no tax elements at all.
 */
import { type XmlChild, type XmlNode, el, leaf, toXml } from '../shared/xml';
import { CATEGORY_CODES, type JoInvoice, type JoTotals, formatJod, joTotals, typeName } from './invoice';

const NS = {
  xmlns: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  'xmlns:cac': 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  'xmlns:cbc': 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  'xmlns:ext': 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
};

const amount = (name: string, value: Parameters<typeof formatJod>[0]) => el(name, { currencyID: 'JO' }, formatJod(value));
const percent = (rate: number) => String(Number((rate * 100).toFixed(4)));
const vatScheme = () => el('cac:TaxScheme', {}, el('cbc:ID', { schemeAgencyID: '6', schemeID: 'UN/ECE 5153' }, 'VAT'));

function seller(invoice: JoInvoice): XmlNode {
  return el('cac:AccountingSupplierParty', {}, el('cac:Party', {},
    el('cac:PostalAddress', {}, el('cac:Country', {}, el('cbc:IdentificationCode', {}, 'JO'))),
    el('cac:PartyTaxScheme', {}, el('cbc:CompanyID', {}, invoice.seller.tin), el('cac:TaxScheme', {}, el('cbc:ID', {}, 'VAT'))),
    el('cac:PartyLegalEntity', {}, el('cbc:RegistrationName', {}, invoice.seller.name)),
  ));
}

/** The buyer; a credit note's block is JoFotara's fixed empty one (the buyer is the original invoice's). */
function buyer(invoice: JoInvoice): XmlNode {
  const b = invoice.buyer;
  if (!b) return el('cac:AccountingCustomerParty', {}, el('cac:Party', {}, el('cac:PostalAddress', {}, el('cac:Country', {}, el('cbc:IdentificationCode', {}, 'JO')))));
  return el('cac:AccountingCustomerParty', {},
    el('cac:Party', {},
      el('cac:PartyIdentification', {}, el('cbc:ID', { schemeID: b.id.scheme }, b.id.value)),
      el('cac:PostalAddress', {}, leaf('cbc:PostalZone', b.postalCode), leaf('cbc:CountrySubentityCode', b.cityCode), el('cac:Country', {}, el('cbc:IdentificationCode', {}, 'JO'))),
      el('cac:PartyTaxScheme', {}, el('cbc:CompanyID', {}, b.id.scheme === 'TN' ? b.id.value : '1'), el('cac:TaxScheme', {}, el('cbc:ID', {}, 'VAT'))),
      b.name ? el('cac:PartyLegalEntity', {}, el('cbc:RegistrationName', {}, b.name)) : undefined,
    ),
    b.phone ? el('cac:AccountingContact', {}, el('cbc:Telephone', {}, b.phone)) : undefined,
  );
}

function line(invoice: JoInvoice, totals: JoTotals, i: number): XmlNode {
  const l = invoice.lines[i];
  const t = totals.lines[i];
  const taxed = invoice.invoiceClass !== 'income';
  const code = CATEGORY_CODES[l.category];
  const taxTotal: XmlChild = taxed
    ? el('cac:TaxTotal', {},
        amount('cbc:TaxAmount', t.tax.plus(t.special)),
        amount('cbc:RoundingAmount', t.rounding),
        el('cac:TaxSubtotal', {},
          amount('cbc:TaxAmount', t.tax),
          el('cac:TaxCategory', {}, el('cbc:ID', { schemeAgencyID: '6', schemeID: 'UN/ECE 5305' }, code), el('cbc:Percent', {}, percent(l.rate)), vatScheme())),
        invoice.invoiceClass === 'special_sales'
          ? el('cac:TaxSubtotal', {}, amount('cbc:TaxAmount', t.special),
              el('cac:TaxCategory', {}, el('cbc:ID', { schemeAgencyID: '6', schemeID: 'UN/ECE 5305' }, 'S'), el('cbc:Percent', {}, '0'),
                el('cac:TaxScheme', {}, el('cbc:ID', { schemeAgencyID: '6', schemeID: 'UN/ECE 5153' }, 'OTH'))))
          : undefined)
    : undefined;
  return el('cac:InvoiceLine', {},
    el('cbc:ID', {}, String(l.lineId ?? i + 1)),
    el('cbc:InvoicedQuantity', { unitCode: 'PCE' }, String(l.quantity)),
    amount('cbc:LineExtensionAmount', t.net),
    taxTotal,
    el('cac:Item', {}, el('cbc:Name', {}, l.description)),
    el('cac:Price', {},
      el('cbc:PriceAmount', { currencyID: 'JO' }, String(l.unitPrice)),
      el('cac:AllowanceCharge', {}, el('cbc:ChargeIndicator', {}, 'false'), el('cbc:AllowanceChargeReason', {}, 'DISCOUNT'), amount('cbc:Amount', t.discount)),
    ),
  );
}

/** The XML JoFotara is sent (base64 in `{invoice}`), with its totals. */
export function renderJofotara(invoice: JoInvoice): { xml: string; totals: JoTotals } {
  const totals = joTotals(invoice.lines, invoice.invoiceClass);
  const credit = invoice.kind === 'credit_note';
  const taxed = invoice.invoiceClass !== 'income';
  const root = el('Invoice', NS,
    el('cbc:ProfileID', {}, 'reporting:1.0'),
    el('cbc:ID', {}, invoice.number),
    el('cbc:UUID', {}, invoice.uuid),
    el('cbc:IssueDate', {}, invoice.issueDate),
    el('cbc:IssueTime', {}, invoice.issueTime),
    el('cbc:InvoiceTypeCode', { name: typeName(invoice.invoiceClass, invoice.payment) }, credit ? '381' : '388'),
    leaf('cbc:Note', invoice.note),
    el('cbc:DocumentCurrencyCode', {}, 'JOD'),
    el('cbc:TaxCurrencyCode', {}, 'JOD'),
    invoice.original
      ? el('cac:BillingReference', {}, el('cac:InvoiceDocumentReference', {}, el('cbc:ID', {}, invoice.original.number), el('cbc:UUID', {}, invoice.original.uuid), el('cbc:DocumentDescription', {}, invoice.original.total)))
      : undefined,
    el('cac:AdditionalDocumentReference', {}, el('cbc:ID', {}, 'ICV'), el('cbc:UUID', {}, String(invoice.icv))),
    seller(invoice),
    buyer(invoice),
    el('cac:SellerSupplierParty', {}, el('cac:Party', {}, el('cac:PartyIdentification', {}, el('cbc:ID', {}, invoice.seller.incomeSource)))),
    invoice.original
      ? el('cac:PaymentMeans', {}, el('cbc:PaymentMeansCode', { listID: 'UN/ECE 4461' }, '10'), el('cbc:InstructionNote', {}, invoice.original.reason))
      : undefined,
    el('cac:AllowanceCharge', {}, el('cbc:ChargeIndicator', {}, 'false'), el('cbc:AllowanceChargeReason', {}, 'discount'), amount('cbc:Amount', totals.allowances)),
    taxed ? el('cac:TaxTotal', {}, amount('cbc:TaxAmount', totals.tax.plus(totals.specialTax))) : undefined,
    el('cac:LegalMonetaryTotal', {},
      amount('cbc:TaxExclusiveAmount', totals.taxExclusive),
      amount('cbc:TaxInclusiveAmount', totals.taxInclusive),
      amount('cbc:AllowanceTotalAmount', totals.allowances),
      amount('cbc:PayableAmount', totals.payable)),
    ...invoice.lines.map((_, i) => line(invoice, totals, i)),
  );
  return { xml: toXml(root), totals };
}

/**
 * The Jordanian area's onboarding and invoices through the platform's generic routes: bodies checked
 * (schema.ts, then rules.ts, every issue at its field), each invoice linked into the supplier's device
 * sequence (the ICV counter, `documents.chain`) and rendered in JoFotara's UBL profile (ubl.ts).
 */
import { createHash } from 'node:crypto';
import { type FieldIssue, type SupplierProfile, issue, validationError } from '@einvoice/domain';
import type { ChainCodec, DocumentCodec, OnboardingCodec, ParsedDocument, ReferencedDocument } from '../registry/area';
import { timeOfDay } from '../shared/fields';
import { validateBody } from '../shared/validate';
import { type JoInvoice, type JoLine, formatJod } from './invoice';
import { buyerIssues, compareNumbers, lineIssues } from './rules';
import { type InvoiceClass, JofotaraCreditNoteBody, JofotaraInvoiceBody, JofotaraOnboardingBody } from './schema';
import { renderJofotara } from './ubl';

export const TIN_SCHEME = 'JO:TIN';
export const CLIENT_ID_SECRET = 'jofotara.client_id';
export const CLIENT_SECRET_SECRET = 'jofotara.client_secret';

/** What the area keeps of a supplier beyond the common profile (`areaDetails`). */
export interface JofotaraSupplier {
  readonly incomeSource: string;
  readonly invoiceClass: InvoiceClass;
}

export const jofotaraSupplierOf = (supplier: SupplierProfile) => supplier.areaDetails as unknown as JofotaraSupplier;

export const jofotaraOnboarding: OnboardingCodec = {
  parse(body) {
    const dto = validateBody(JofotaraOnboardingBody, body);
    const issues: FieldIssue[] = [];
    const tin = dto.supplier_tin.trim();
    if (!/^\d{6,15}$/.test(tin)) issues.push(issue('supplier_tin', 'JOFOTARA.TIN', 'supplier_tin must be the supplier\'s tax number: 6 to 15 digits.'));
    const source = dto.default_income_source.trim();
    if (!/^\d{1,20}$/.test(source)) issues.push(issue('default_income_source', 'JOFOTARA.INCOME_SOURCE', 'default_income_source must be the income-source sequence the portal shows (digits).'));
    if (dto.city_code && !/^JO-[A-Z]{2}$/.test(dto.city_code)) issues.push(issue('city_code', 'JOFOTARA.CITY_CODE', 'city_code must be an ISO 3166-2:JO code such as JO-AM or JO-IR.'));
    if (issues.length) throw validationError(issues);
    const details: JofotaraSupplier = { incomeSource: source, invoiceClass: dto.invoice_class ?? 'general_sales' };
    return {
      registeredName: dto.supplier_name.trim(),
      identifiers: [{ scheme: TIN_SCHEME, id: tin }],
      country: 'JO',
      ...(dto.city_code ? { county: dto.city_code } : {}),
      ...(dto.postal_code ? { postalCode: dto.postal_code } : {}),
      ...(dto.phone ? { contactNumber: dto.phone } : {}),
      areaDetails: { ...details },
    };
  },
  respond: (supplierId, profile) => ({ status: 'success', message: 'Supplier onboarded.', data: { supplier_name: profile.registeredName, participant_id: supplierId } }),
  secrets(body) {
    const { client_id, client_secret } = body as { client_id: string; client_secret: string };
    return { [CLIENT_ID_SECRET]: client_id, [CLIENT_SECRET_SECRET]: client_secret };
  },
};

/** An invoice, checked; its UUID (the document id) and ICV come when it is linked. */
function parseInvoice(body: unknown, supplier: SupplierProfile): ParsedDocument {
  const dto = validateBody(JofotaraInvoiceBody, body);
  const { invoiceClass, incomeSource } = jofotaraSupplierOf(supplier);
  const payment = dto.payment_method ?? 'cash';
  const { issues, lines } = lineIssues(dto, invoiceClass);
  const buyer = buyerIssues(dto, payment, lines, invoiceClass);
  issues.push(...buyer.issues);
  if (!dto.invoice_ref_number.trim()) issues.push(issue('invoice_ref_number', 'JOFOTARA.NUMBER', 'invoice_ref_number must not be blank.'));
  if (issues.length) throw validationError(issues);
  const invoice: Omit<JoInvoice, 'uuid' | 'icv'> = {
    kind: 'invoice',
    number: dto.invoice_ref_number.trim(),
    issueDate: dto.issue_date,
    issueTime: timeOfDay(dto.issue_time),
    invoiceClass,
    payment,
    seller: { tin: supplier.identifiers.find((i) => i.scheme === TIN_SCHEME)?.id ?? '', name: supplier.registeredName, incomeSource },
    ...(buyer.buyer ? { buyer: buyer.buyer } : {}),
    lines,
    ...(dto.note ? { note: dto.note } : {}),
  };
  return { number: invoice.number, type: 'invoice', fields: { ...dto, payment_method: payment, issue_time: invoice.issueTime }, payload: { invoice } };
}

/** A credit note: which lines of which invoice come back, and why; completed by `resolveCreditNote`. */
function parseCreditNote(body: unknown): ParsedDocument {
  const dto = validateBody(JofotaraCreditNoteBody, body);
  const issues: FieldIssue[] = [];
  dto.returned_lines.forEach((r, i) => {
    if (!Number.isInteger(r.line) || r.line < 1) issues.push(issue(`returned_lines[${i}].line`, 'JOFOTARA.RETURNED_LINE', 'line is the original invoice\'s line number, from 1.'));
    if (!(r.quantity > 0)) issues.push(issue(`returned_lines[${i}].quantity`, 'JOFOTARA.QUANTITY', 'quantity must be more than 0.'));
  });
  if (!dto.credit_note_ref_number.trim()) issues.push(issue('credit_note_ref_number', 'JOFOTARA.NUMBER', 'credit_note_ref_number must not be blank.'));
  if (issues.length) throw validationError(issues);
  return {
    number: dto.credit_note_ref_number.trim(),
    type: 'credit_note',
    fields: { ...dto, issue_time: timeOfDay(dto.issue_time) },
    refersTo: { id: dto.original_uuid },
  };
}

/**
 * The credit note from its original: only quantities come back, at the original's prices, rates and
 * (pro rata) discounts, each line under its original line's id; never more than that line sold (what
 * earlier credit notes returned is JoFotara's to count: it refuses the excess, and so does the sandbox).
 */
function resolveCreditNote(document: ParsedDocument, original: ReferencedDocument, supplier: SupplierProfile): ParsedDocument {
  const f = document.fields as unknown as JofotaraCreditNoteBody & { issue_time: string };
  if (original.type !== 'invoice') throw validationError([issue('original_uuid', 'JOFOTARA.ORIGINAL', 'original_uuid must be an invoice (not a credit note).')]);
  if (original.state !== 'reported') throw validationError([issue('original_uuid', 'JOFOTARA.ORIGINAL', `The invoice was not cleared by JoFotara (its state: ${original.state}); nothing can be returned against it.`)]);
  const sold = original.fields as unknown as JofotaraInvoiceBody & { totals?: { payable_amount?: string } };
  const issues: FieldIssue[] = [];
  const lines: JoLine[] = [];
  f.returned_lines.forEach((r, i) => {
    const line = sold.lineitems[r.line - 1];
    if (!line) return void issues.push(issue(`returned_lines[${i}].line`, 'JOFOTARA.RETURNED_LINE', `The invoice has ${sold.lineitems.length} line(s); there is no line ${r.line}.`));
    if (r.quantity > line.quantity + 1e-9) return void issues.push(issue(`returned_lines[${i}].quantity`, 'JOFOTARA.RETURNED_QUANTITY', `Line ${r.line} sold ${line.quantity}; no more can be returned.`));
    const discount = (line.discounts ?? []).reduce((total, d) => total + d.amount, 0) * (r.quantity / line.quantity);
    lines.push({ lineId: r.line, description: line.description, quantity: r.quantity, unitPrice: line.tax_exclusive_price, rate: line.tax_percentage, category: line.tax_category, discount, ...(line.special_tax_amount !== undefined ? { specialTax: line.special_tax_amount * (r.quantity / line.quantity) } : {}) });
  });
  if (issues.length) throw validationError(issues);
  const { invoiceClass, incomeSource } = jofotaraSupplierOf(supplier);
  const invoice: Omit<JoInvoice, 'uuid' | 'icv'> = {
    kind: 'credit_note',
    number: document.number,
    issueDate: f.issue_date,
    issueTime: f.issue_time,
    invoiceClass,
    payment: (sold.payment_method ?? 'cash') as 'cash' | 'receivable',
    seller: { tin: supplier.identifiers.find((i) => i.scheme === TIN_SCHEME)?.id ?? '', name: supplier.registeredName, incomeSource },
    lines,
    original: { number: original.number, uuid: original.documentId, total: sold.totals?.payable_amount ?? '0.000', reason: f.reason },
  };
  return { ...document, payload: { invoice } };
}

/** What the next document of a device needs of the last: its ICV and the last invoice number. */
interface DeviceLink {
  readonly icv: number;
  readonly lastInvoiceNumber?: string;
}

const deviceSequence: ChainCodec = {
  async link(document, _supplier, next) {
    const previous = next.previous as DeviceLink | undefined;
    const invoice = (document.payload as { invoice: Omit<JoInvoice, 'uuid' | 'icv'> }).invoice;
    if (invoice.kind === 'invoice' && previous?.lastInvoiceNumber && compareNumbers(invoice.number, previous.lastInvoiceNumber) < 0) {
      throw validationError([issue('invoice_ref_number', 'JOFOTARA.NUMBER_ORDER', `invoice_ref_number must come after this supplier's last one, ${previous.lastInvoiceNumber} (invoices are issued in sequence).`)]);
    }
    const icv = (previous?.icv ?? 0) + 1;
    const { xml, totals } = renderJofotara({ ...invoice, uuid: next.documentId, icv });
    const link: DeviceLink = { icv, lastInvoiceNumber: invoice.kind === 'invoice' ? invoice.number : previous?.lastInvoiceNumber };
    return {
      document: { bytes: xml, mediaType: 'application/xml', sha256: createHash('sha256').update(xml, 'utf8').digest('hex') },
      payload: { number: invoice.number, uuid: next.documentId, kind: invoice.kind, ...(invoice.original ? { original: invoice.original } : {}) },
      link: { ...link },
      fields: {
        icv,
        totals: {
          tax_exclusive_amount: formatJod(totals.taxExclusive),
          discount_total: formatJod(totals.allowances),
          tax_total: formatJod(totals.tax.plus(totals.specialTax)),
          tax_inclusive_amount: formatJod(totals.taxInclusive),
          payable_amount: formatJod(totals.payable),
        },
      },
    };
  },
};

export const jofotaraDocuments: Pick<DocumentCodec, 'parse' | 'render' | 'chain' | 'numberField' | 'resolve'> = {
  parse: (body, supplier, variant) => (variant === 'credit-note' ? parseCreditNote(body) : parseInvoice(body, supplier)),
  resolve: resolveCreditNote,
  render() {
    throw new Error('Jordanian documents are rendered when linked into the device sequence (documents.chain).');
  },
  chain: deviceSequence,
  numberField: 'invoice_ref_number',
};

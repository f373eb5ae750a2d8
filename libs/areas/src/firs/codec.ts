/**
 * The Nigerian area's onboarding and invoices through the platform's generic routes: bodies checked
 * (schema.ts, rules.ts), the IRN made from the document identifier and the supplier's FIRS service id,
 * and the invoice rendered as the JSON FIRS takes (`invoice/validate`, `invoice/sign`).
 */
import { createHash } from 'node:crypto';
import { type SupplierProfile, issue, validationError } from '@einvoice/domain';
import type { DocumentCodec, OnboardingCodec, ParsedDocument } from '../registry/area';
import { timeOfDay } from '../shared/fields';
import { validateBody } from '../shared/validate';
import { EMAIL_SECRET, PASSWORD_SECRET, TIN_SCHEME } from './names';
import { checkInvoice, irnOf } from './rules';
import { FirsInvoiceBody, FirsOnboardingBody, FirsPaymentStatusBody } from './schema';

/** What FIRS told of the supplier at its login (`areaDetails`), and its own description. */
export interface FirsSupplier {
  readonly businessId: string;
  readonly serviceId: string;
  readonly businessDescription: string;
}

export const firsSupplierOf = (supplier: SupplierProfile) => supplier.areaDetails as unknown as FirsSupplier;

export const firsOnboarding: OnboardingCodec = {
  parse(body) {
    const dto = validateBody(FirsOnboardingBody, body);
    const tin = dto.tin.trim();
    if (!/^[A-Za-z0-9-]{8,20}$/.test(tin)) throw validationError([issue('tin', 'FIRS.TIN', 'tin must be the taxpayer\'s TIN: 8 to 20 letters, digits or hyphens (e.g. 12345678-0001).')]);
    return {
      registeredName: (dto.party_name ?? tin).trim(),
      identifiers: [{ scheme: TIN_SCHEME, id: tin }],
      ...(dto.postal_address.street_name ? { street: dto.postal_address.street_name } : {}),
      ...(dto.postal_address.city_name ? { city: dto.postal_address.city_name } : {}),
      ...(dto.postal_address.postal_zone ? { postalCode: dto.postal_address.postal_zone } : {}),
      country: dto.postal_address.country,
      ...(dto.telephone ? { contactNumber: dto.telephone } : {}),
      contactEmail: dto.email,
      areaDetails: { businessDescription: dto.business_description },
    };
  },
  respond: (supplierId, profile) => ({ status: 'success', message: 'Taxpayer logged in to FIRS and onboarded.', data: { supplier_name: profile.registeredName, participant_id: supplierId } }),
  secrets(body) {
    const { email, password } = body as { email: string; password: string };
    return { [EMAIL_SECRET]: email, [PASSWORD_SECRET]: password };
  },
};

/** The seed's line items travel as `invoice_line` (its sample); `lineitems` is accepted as an alias. */
function withLines(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const b = body as Record<string, unknown>;
  return b.invoice_line === undefined && b.lineitems !== undefined ? { ...b, invoice_line: b.lineitems } : b;
}

function parseInvoice(body: unknown, supplier: SupplierProfile): ParsedDocument {
  const dto = validateBody(FirsInvoiceBody, withLines(body));
  const { issues, totals } = checkInvoice(dto);
  if (issues.length) throw validationError(issues);
  const firs = firsSupplierOf(supplier);
  const irn = irnOf(dto.document_identifier, firs.serviceId, dto.issue_date);
  const fields = {
    ...dto,
    issue_time: timeOfDay(dto.issue_time),
    payment_status: dto.payment_status ?? 'PENDING',
    document_currency_code: dto.document_currency_code ?? 'NGN',
    tax_currency_code: dto.tax_currency_code ?? dto.document_currency_code ?? 'NGN',
    irn,
    business_id: firs.businessId,
    accounting_supplier_party: supplierParty(supplier),
    totals,
  };
  return { number: dto.document_identifier, type: dto.invoice_type_code, fields, payload: { irn, invoiceReference: dto.document_identifier, businessId: firs.businessId } };
}

/** The supplier as FIRS wants it on the invoice, from its onboarding. */
function supplierParty(supplier: SupplierProfile) {
  return {
    party_name: supplier.registeredName,
    tin: supplier.identifiers.find((i) => i.scheme === TIN_SCHEME)?.id,
    email: supplier.contactEmail,
    ...(supplier.contactNumber ? { telephone: supplier.contactNumber } : {}),
    business_description: firsSupplierOf(supplier).businessDescription,
    postal_address: { street_name: supplier.street, city_name: supplier.city, postal_zone: supplier.postalCode, country: supplier.country },
  };
}

/** The invoice as FIRS takes it (the MBS sample's shape), the supplier from its onboarding. */
function renderInvoice(document: ParsedDocument, supplier: SupplierProfile) {
  const f = document.fields as unknown as FirsInvoiceBody & { irn: string; business_id: string; issue_time: string; payment_status: string; document_currency_code: string; tax_currency_code: string; totals: ReturnType<typeof checkInvoice>['totals'] };
  const invoice = {
    business_id: f.business_id,
    irn: f.irn,
    issue_date: f.issue_date,
    ...(f.due_date ? { due_date: f.due_date } : {}),
    issue_time: f.issue_time,
    invoice_type_code: f.invoice_type_code,
    payment_status: f.payment_status,
    ...(f.note ? { note: f.note } : {}),
    document_currency_code: f.document_currency_code,
    tax_currency_code: f.tax_currency_code,
    ...(f.buyer_reference ? { buyer_reference: f.buyer_reference } : {}),
    ...(f.invoice_delivery_period ? { invoice_delivery_period: f.invoice_delivery_period } : {}),
    accounting_supplier_party: supplierParty(supplier),
    accounting_customer_party: f.accounting_customer_party,
    ...(f.allowance_charge ? { allowance_charge: f.allowance_charge } : {}),
    ...(f.tax_total ? { tax_total: f.tax_total } : {}),
    legal_monetary_total: {
      line_extension_amount: Number(f.totals.lineExtension),
      tax_exclusive_amount: Number(f.totals.taxExclusive),
      tax_inclusive_amount: Number(f.totals.taxInclusive),
      payable_amount: Number(f.totals.payable),
    },
    invoice_line: f.invoice_line,
  };
  const bytes = JSON.stringify(invoice);
  return { bytes, mediaType: 'application/json' as const, sha256: createHash('sha256').update(bytes, 'utf8').digest('hex') };
}

/**
 * `PATCH /api/invoice/{irn}/payment-status`: the change FIRS is asked to make (the new payment status and
 * its reference), merged into the document's fields once made. @throws AppError validation
 */
export function paymentStatusChange(body: unknown): Record<string, unknown> {
  const dto = validateBody(FirsPaymentStatusBody, body);
  return { payment_status: dto.payment_status, ...(dto.reference ? { payment_reference: dto.reference } : {}) };
}

export const firsDocuments: Pick<DocumentCodec, 'parse' | 'numberField' | 'lookup'> & Required<Pick<DocumentCodec, 'render'>> = {
  parse: (body, supplier) => parseInvoice(body, supplier),
  render: (document, supplier) => renderInvoice(document, supplier),
  numberField: 'document_identifier',
  lookup: { alsoBy: { field: 'irn', of: 'fields' } },
};

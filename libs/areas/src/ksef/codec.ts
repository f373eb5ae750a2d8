/**
 * The Polish area's onboarding and invoices through the platform's generic routes: bodies checked
 * (schema.ts, then the rules below, every issue at its field), invoices rendered as FA(3) (fa3.ts).
 */
import { createHash } from 'node:crypto';
import { type FieldIssue, type SupplierProfile, issue, validationError } from '@einvoice/domain';
import type { DocumentCodec, OnboardingCodec, ParsedDocument } from '../registry/area';
import { formatAmount } from '../shared/money';
import { validateBody } from '../shared/validate';
import { COMMON_REVISABLE_FIELDS, commonOnboardingBody, reviseByOnboarding } from '../shared/revise';
import { type Fa3BuyerId, type Fa3Invoice, type Fa3Line, fa3Totals, hasPlnTax, renderFa3 } from './fa3';
import { isValidNip, normalizeNip } from '../shared/nip';
import { peppolCopyIssues, peppolCopyOf } from './peppol-copy';
import { polishRate } from './rates';
import { KsefInvoiceBody, type KsefInvoiceLine, KsefOnboardingBody } from './schema';

export const NIP_SCHEME = 'PL:NIP';
export const KSEF_TOKEN_SECRET = 'ksef.token';
/** `transport_mode` values: `ksef` (KSeF only) and `peppol` (KSeF, then a Peppol copy to the buyer). */
export const TRANSPORT_MODES = ['ksef', 'peppol'] as const;
/** The EU member states whose VAT numbers FA(3) takes as `KodUE` + `NrVatUE`. */
const EU = new Set(['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'EL', 'ES', 'FI', 'FR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'RO', 'SE', 'SI', 'SK', 'XI']);

export const ksefOnboarding: OnboardingCodec = {
  parse: parseKsefOnboarding,
  // The token is a secret, sent again only by onboarding; everything else but the NIP may change.
  revise: reviseByOnboarding({ fields: COMMON_REVISABLE_FIELDS, bodyOf: commonOnboardingBody, parse: parseKsefOnboarding }),
  secrets(body) {
    const token = (body as { ksef_token?: string }).ksef_token;
    return token ? { [KSEF_TOKEN_SECRET]: token } : undefined;
  },
};

function parseKsefOnboarding(body: unknown): SupplierProfile {
  const dto = validateBody(KsefOnboardingBody, body);
  const issues: FieldIssue[] = [];
  const nipAt = dto.identifiers.findIndex((i) => i.scheme === NIP_SCHEME);
  if (nipAt < 0) issues.push(issue('identifiers', 'KSEF.NIP_REQUIRED', `A Polish supplier is identified by its NIP: an identifier with scheme ${NIP_SCHEME}.`));
  else if (!isValidNip(dto.identifiers[nipAt].id)) issues.push(issue(`identifiers[${nipAt}].id`, 'KSEF.NIP', 'The NIP is not valid (10 digits, the last a check digit).'));
  if (dto.country !== 'PL') issues.push(issue('country', 'KSEF.COUNTRY', 'A KSeF supplier is established in Poland: country must be PL.'));
  if (issues.length) throw validationError(issues);
  return {
    registeredName: dto.registered_name.trim(),
    identifiers: [{ scheme: NIP_SCHEME, id: normalizeNip(dto.identifiers[nipAt].id) }],
    street: dto.street,
    city: dto.city,
    county: dto.county,
    postalCode: dto.postal_code,
    country: 'PL',
    contactNumber: dto.contact_number,
    contactName: dto.contact_name,
    contactEmail: dto.contact_email,
  };
}

function sellerOf(supplier: SupplierProfile) {
  const nip = supplier.identifiers.find((i) => i.scheme === NIP_SCHEME)?.id ?? '';
  const line2 = [supplier.postalCode, supplier.city].filter(Boolean).join(' ');
  return { nip, name: supplier.registeredName, address: { country: 'PL', line1: supplier.street && supplier.street !== 'NA' ? supplier.street : (supplier.city ?? 'NA'), ...(line2 ? { line2 } : {}) } };
}

function buyerIdOf(dto: KsefInvoiceBody, issues: FieldIssue[]): Fa3BuyerId {
  const [first] = dto.CustomerParty.Identifiers;
  const at = 'CustomerParty.Identifiers[0].ID';
  if (first.Scheme === NIP_SCHEME) {
    if (!isValidNip(first.ID)) issues.push(issue(at, 'KSEF.NIP', 'The buyer\'s NIP is not valid (10 digits, the last a check digit).'));
    return { nip: normalizeNip(first.ID) };
  }
  const country = /^([A-Z]{2}):VAT$/.exec(first.Scheme)?.[1];
  if (country && EU.has(country)) return { euVat: { country, number: first.ID.replace(new RegExp(`^${country}`), '') } };
  return { other: { country: dto.CustomerParty.address.Country, id: first.ID } };
}

/** A body line as FA(3) takes it, or why its tax type and rate name no FA(3) rate. */
export function fa3LineOf(line: KsefInvoiceLine): Fa3Line | { refused: string } {
  const mapped = polishRate(line.TaxType.TaxType, line.TaxType.TaxRate);
  return 'refused' in mapped ? mapped : { description: line.Description, quantity: line.InvoicedQuantity ?? 1, unitPrice: line.PriceAmount, rate: mapped.rate };
}

/** The PLN rate a foreign-currency invoice with VAT needs (P_14_xW), and only there. */
function exchangeRateIssues(dto: KsefInvoiceBody, lines: readonly Fa3Line[]): FieldIssue[] {
  const rate = dto.ExchangeRate;
  if ((dto.DocumentCurrencyCode ?? 'PLN') === 'PLN') {
    return rate === undefined ? [] : [issue('ExchangeRate', 'KSEF.EXCHANGE_RATE', 'ExchangeRate belongs to an invoice in another currency than PLN; this one is in PLN.')];
  }
  if (rate === undefined) {
    return lines.some((l) => hasPlnTax(l.rate))
      ? [issue('ExchangeRate', 'KSEF.EXCHANGE_RATE', `An invoice in ${dto.DocumentCurrencyCode} with VAT at 23, 8 or 5 % states its VAT in PLN too (FA(3) P_14_xW): send ExchangeRate, the PLN per ${dto.DocumentCurrencyCode} it is converted at.`)]
      : [];
  }
  return rate > 0 && /^\d+(\.\d{1,6})?$/.test(String(rate)) ? [] : [issue('ExchangeRate', 'KSEF.EXCHANGE_RATE', 'ExchangeRate must be more than 0, with at most 6 decimals (FA(3) KursWaluty).')];
}

function parseInvoice(body: unknown, supplier: SupplierProfile, variant?: string): ParsedDocument {
  const issues: FieldIssue[] = [];
  if (!TRANSPORT_MODES.includes(variant as (typeof TRANSPORT_MODES)[number])) {
    issues.push(issue('headers.transport_mode', 'KSEF.TRANSPORT_MODE', `transport_mode must be one of: ${TRANSPORT_MODES.join(', ')}.`));
  }
  if (issues.length) throw validationError(issues);
  const dto = validateBody(KsefInvoiceBody, body);
  const lines: Fa3Line[] = [];
  dto.InvoiceLines.forEach((line, i) => {
    const at = `InvoiceLines[${i}].TaxType`;
    if (line.TaxType.TaxCountry !== 'PL') issues.push(issue(`${at}.TaxCountry`, 'KSEF.TAX_COUNTRY', 'Polish VAT: TaxCountry must be PL.'));
    const mapped = fa3LineOf(line);
    if ('refused' in mapped) issues.push(issue(`${at}.TaxRate`, 'KSEF.TAX_RATE', mapped.refused));
    else lines.push(mapped);
  });
  if (lines.some((l) => l.rate === 'zw') && !dto.ExemptionReason) issues.push(issue('ExemptionReason', 'KSEF.EXEMPTION_REASON', 'An exempt line needs the legal basis of the exemption (FA(3) P_19A).'));
  issues.push(...exchangeRateIssues(dto, lines));
  const correction = dto.DocumentType === 'CorrectionInvoice';
  if (correction && !dto.CorrectedInvoice) issues.push(issue('CorrectedInvoice', 'KSEF.CORRECTED_INVOICE', 'A CorrectionInvoice names the invoice it corrects: CorrectedInvoice {ID, KsefNumber?, IssueDate}.'));
  if (correction && !dto.CorrectionReason) issues.push(issue('CorrectionReason', 'KSEF.CORRECTION_REASON', 'A CorrectionInvoice states its reason.'));
  if (!correction && (dto.CorrectedInvoice || dto.CorrectionReason)) issues.push(issue('CorrectedInvoice', 'KSEF.NOT_A_CORRECTION', 'CorrectedInvoice and CorrectionReason belong to a CorrectionInvoice.'));
  const buyerId = buyerIdOf(dto, issues);
  if (lines.length === dto.InvoiceLines.length) {
    const expected = fa3Totals(lines).total;
    if (Math.abs(Number(expected) - dto.TotalIncludingVat) > 0.005) issues.push(issue('TotalIncludingVat', 'KSEF.TOTAL_MISMATCH', `TotalIncludingVat must be ${expected} (the lines' nets and VAT per rate).`));
  }
  if (!issues.length && variant === 'peppol') issues.push(...peppolCopyIssues(dto, supplier));
  if (issues.length) throw validationError(issues);
  const currency = dto.DocumentCurrencyCode ?? 'PLN';
  const { address } = dto.CustomerParty;
  const invoice: Omit<Fa3Invoice, 'createdAt' | 'seller'> = {
    number: dto.ID,
    issueDate: dto.IssueDate,
    currency,
    buyer: { name: dto.CustomerParty.RegisteredName, id: buyerId, address: { country: address.Country, line1: address.Street, line2: `${address.ZipCode} ${address.City}` } },
    lines,
    ...(correction && dto.CorrectedInvoice && dto.CorrectionReason
      ? { correction: { reason: dto.CorrectionReason, invoice: { number: dto.CorrectedInvoice.ID, issueDate: dto.CorrectedInvoice.IssueDate, ...(dto.CorrectedInvoice.KsefNumber ? { ksefNumber: dto.CorrectedInvoice.KsefNumber } : {}) } } }
      : {}),
    ...(dto.ExemptionReason ? { exemptionBasis: dto.ExemptionReason } : {}),
    ...(dto.ExchangeRate !== undefined ? { exchangeRate: dto.ExchangeRate } : {}),
  };
  return {
    number: dto.ID,
    type: dto.DocumentType,
    // The seller's NIP joins the caller's fields: the verification link names it.
    fields: { ...dto, DocumentCurrencyCode: currency, TotalIncludingVat: Number(formatAmount(dto.TotalIncludingVat)), transport_mode: variant, SellerNip: sellerOf(supplier).nip },
    payload: { invoice },
  };
}

export const ksefDocuments: Pick<DocumentCodec, 'parse' | 'render' | 'peppolCopy'> = {
  parse: parseInvoice,
  peppolCopy: (document, supplier, documentId) => (document.fields.transport_mode === 'peppol' ? peppolCopyOf(document.fields as unknown as KsefInvoiceBody, supplier, documentId) : undefined),
  render(document, supplier) {
    const seller = sellerOf(supplier);
    const invoice = (document.payload as { invoice: Omit<Fa3Invoice, 'createdAt' | 'seller'> }).invoice;
    const xml = renderFa3({ ...invoice, seller, createdAt: new Date() });
    return { bytes: xml, mediaType: 'application/xml', sha256: createHash('sha256').update(xml, 'utf8').digest('hex') };
  },
};

/**
 * The registry entry of the Malaysian area (LHDN MyInvois): parse, check and render.
 * Pure functions; errors are AppError from @einvoice/domain listing every FieldIssue.
 */
import { validationError } from '@einvoice/domain';
import { validateBody } from '../shared/validate';
import { normaliseTime } from './fields';
import { hashDocument } from './hash';
import { renderPintMy } from './render-pint-my';
import { renderMyInvoisJson } from './render-json';
import { renderMyInvoisXml } from './render-xml';
import { checkDocument, checkOnboarding, checkSupplierTaxes, checkTinValidation } from './rules';
import { ConsolidatedDocument, DocumentBase, DocumentKind, InvoiceDocument, MyInvoisDocument, SelfBilledDocument } from './schema-document';
import { MyInvoisOnboarding, MyInvoisOnboardingBody, MyInvoisSupplier, TinValidationBody } from './schema-onboarding';

/** Both MyInvois forms of one document and the SHA-256 (hex) of each form's exact bytes. */
export interface RenderedMyInvois {
  readonly xml: string;
  readonly json: string;
  /** MyInvois `documentHash` of the XML and of the JSON text (hash.ts). */
  readonly sha256: { readonly xml: string; readonly json: string };
}

/** The Malaysian area as the gateway and workers use it. */
export interface MyInvoisArea {
  readonly code: 'my';
  readonly defaultCurrency: 'MYR';
  /** Validates an onboarding body. @throws AppError validation */
  parseOnboarding(body: unknown): MyInvoisOnboarding;
  /** Validates a TIN validation request (format only; the authority answers whether it exists). @throws AppError validation */
  parseTinValidation(body: unknown): TinValidationBody;
  /**
   * Validates a document of the given kind (schema, then every rule) and applies defaults:
   * currency MYR, IssueTime as `HH:MM:ssZ`, UOM C62. With the supplier, also the rules that
   * depend on it (SST / TTX numbers when sales, service or tourism tax is charged).
   * @throws AppError validation listing all issues
   */
  parseDocument(kind: DocumentKind, body: unknown, supplier?: MyInvoisSupplier): MyInvoisDocument;
  /** The MyInvois XML and JSON forms with their hashes. */
  render(doc: MyInvoisDocument, supplier: MyInvoisSupplier): RenderedMyInvois;
  /** PINT MY UBL for `transport_mode: peppol` (render-pint-my.ts). */
  renderPintMy(doc: MyInvoisDocument, supplier: MyInvoisSupplier): string;
}

const classes = { invoice: InvoiceDocument, consolidated: ConsolidatedDocument, 'self-billed': SelfBilledDocument } as const;

function applyDefaults(body: DocumentBase): void {
  body.DocumentCurrencyCode ??= 'MYR';
  body.IssueTime = normaliseTime(body.IssueTime);
  for (const p of body.Prepayments ?? []) if (p.Time) p.Time = normaliseTime(p.Time);
  for (const line of body.InvoiceLines) line.UOM ??= 'C62';
}

/** The Malaysian area. */
export const myInvoisArea: MyInvoisArea = {
  code: 'my',
  defaultCurrency: 'MYR',
  parseOnboarding(body) {
    const dto = validateBody(MyInvoisOnboardingBody, body);
    const issues = checkOnboarding(dto);
    if (issues.length) throw validationError(issues);
    const ids = dto.other_ids;
    return {
      supplier: {
        registeredName: dto.registered_name, tin: dto.tin_number,
        otherIds: { sst: ids.sst, brn: ids.brn, nric: ids.nric, passport: ids.passport, army: ids.army, ttx: ids.ttx },
        msicCode: dto.msic_code, industry: dto.industry, city: dto.city, street: dto.street, state: dto.state,
        country: dto.country, contactNumber: dto.contact_number,
      },
      credentials: { clientId: dto.client_id, clientSecret: dto.client_secret },
    };
  },
  parseTinValidation(body) {
    const dto = validateBody(TinValidationBody, body);
    const issues = checkTinValidation(dto);
    if (issues.length) throw validationError(issues);
    return dto;
  },
  parseDocument(kind, body, supplier) {
    const dto: DocumentBase = validateBody<DocumentBase>(classes[kind], body);
    const issues = checkDocument(kind, dto, body as Record<string, unknown>);
    if (supplier) issues.push(...checkSupplierTaxes(kind, dto, supplier));
    if (issues.length) throw validationError(issues);
    applyDefaults(dto);
    return { kind, body: dto } as MyInvoisDocument;
  },
  render(doc, supplier) {
    const xml = renderMyInvoisXml(doc, supplier);
    const json = renderMyInvoisJson(doc, supplier);
    return { xml, json, sha256: { xml: hashDocument(xml, 'XML').sha256Hex, json: hashDocument(json, 'JSON').sha256Hex } };
  },
  renderPintMy: (doc, supplier) => renderPintMy(doc, supplier),
};

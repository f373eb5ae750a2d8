/**
 * The Argentine area's onboarding and vouchers through the platform's generic routes: bodies checked
 * (schema.ts; a body that is not a voucher is a 400 naming the field), the voucher kept as AFIP takes it
 * (FECAESolicitar's detail, JSON). AFIP's own validations (validations.ts) are answered as AFIP answers
 * them: `Resultado: "R"` with its codes, by the sandbox or by the live client's pre-check.
 */
import { createHash, randomUUID } from 'node:crypto';
import { type FieldIssue, type SupplierProfile, issue, validationError } from '@einvoice/domain';
import type { DocumentCodec, OnboardingCodec, ParsedDocument } from '../registry/area';
import { certificateIssues } from '../shared/certificates';
import { validateBody } from '../shared/validate';
import { reviseByOnboarding } from '../shared/revise';
import { isValidCuit, normalizeCuit } from './cuit';
import { AfipOnboardingBody, CreateVoucherBody } from './schema';
import { receiverVatCondition } from './validations';

export const CUIT_SCHEME = 'AR:CUIT';
export const CERTIFICATE_SECRET = 'afip.certificate';
export const KEY_SECRET = 'afip.private_key';

const INTEGERS = ['CantReg', 'PtoVta', 'CbteTipo', 'Concepto', 'DocTipo', 'DocNro', 'CbteDesde', 'CbteHasta'] as const;
const DATES = ['CbteFch', 'FchServDesde', 'FchServHasta', 'FchVtoPago'] as const;

const realDate = (yyyymmdd: string) => {
  if (!/^\d{8}$/.test(yyyymmdd)) return false;
  const d = new Date(`${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10).replace(/-/g, '') === yyyymmdd;
};

function parseAfipOnboarding(body: unknown): SupplierProfile {
  const dto = validateBody(AfipOnboardingBody, body);
  const cuit = normalizeCuit(dto.cuit);
  const issues: FieldIssue[] = [];
  if (!isValidCuit(cuit)) issues.push(issue('cuit', 'AFIP.CUIT', 'cuit must be a CUIT of 11 digits with a valid check digit (e.g. 20-11111111-2).'));
  issues.push(...certificateIssues(dto, 'AFIP.CERTIFICATE'));
  if (issues.length) throw validationError(issues);
  return { registeredName: dto.legal_name.trim(), identifiers: [{ scheme: CUIT_SCHEME, id: cuit }], country: 'AR', areaDetails: { pointsOfSale: dto.points_of_sale ?? [] } };
}

export const afipOnboarding: OnboardingCodec = {
  parse: parseAfipOnboarding,
  // The legal name and the points of sale registered at AFIP may change; the CUIT is the taxpayer.
  revise: reviseByOnboarding({
    fields: ['legal_name', 'points_of_sale'],
    bodyOf: (profile) => ({ cuit: profile.identifiers[0]?.id, legal_name: profile.registeredName, points_of_sale: profile.areaDetails?.pointsOfSale ?? [] }),
    parse: parseAfipOnboarding,
  }),
  respond: (supplierId, profile) => ({ status: 'success', message: 'Taxpayer onboarded.', data: { supplier_uuid: supplierId, cuit: profile.identifiers[0].id, legal_name: profile.registeredName } }),
  secrets(body) {
    const { certificate_pem, private_key_pem } = body as { certificate_pem?: string; private_key_pem?: string };
    return certificate_pem && private_key_pem ? { [CERTIFICATE_SECRET]: certificate_pem, [KEY_SECRET]: private_key_pem } : undefined;
  },
};

/** The sequence a voucher belongs to: AFIP numbers per CUIT, point of sale and voucher type. */
export const sequenceOf = (v: { PtoVta: number; CbteTipo: number }) => `${v.PtoVta}-${v.CbteTipo}`;

function parseVoucher(body: unknown, supplier: SupplierProfile): ParsedDocument {
  const dto = validateBody(CreateVoucherBody, body);
  const issues: FieldIssue[] = [];
  for (const field of INTEGERS) {
    const value = dto[field];
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) issues.push(issue(field, 'FIELD.INVALID_VALUE', `${field} must be a whole number, not negative.`));
  }
  // Both numbers, or neither (the gateway then takes the sequence's next at sending time: #44).
  for (const [given, missing] of [['CbteDesde', 'CbteHasta'], ['CbteHasta', 'CbteDesde']] as const) {
    if (dto[given] !== undefined && dto[missing] === undefined) {
      issues.push(issue(missing, 'FIELD.REQUIRED', `${missing} must be sent with ${given}; or leave both out for the gateway to number the voucher.`));
    }
  }
  for (const field of DATES) if (dto[field] !== undefined && !realDate(dto[field]!)) issues.push(issue(field, 'FIELD.INVALID_FORMAT', `${field} must be a date written yyyymmdd.`));
  const pointsOfSale = (supplier.areaDetails?.pointsOfSale as number[] | undefined) ?? [];
  if (pointsOfSale.length && !pointsOfSale.includes(dto.PtoVta)) issues.push(issue('PtoVta', 'AFIP.10005', `PtoVta ${dto.PtoVta} is not one of this taxpayer's points of sale (${pointsOfSale.join(', ')}).`));
  if (issues.length) throw validationError(issues);
  const condition = receiverVatCondition(dto);
  const voucher = { ...dto, ...(condition !== undefined ? { CondicionIVAReceptorId: condition } : {}) };
  // The document number: the voucher's place in AFIP's numbering, unique per taxpayer. Without numbers it
  // has none yet (AFIP's answer carries it): a placeholder unique to this request.
  const sequence = `${String(dto.PtoVta).padStart(5, '0')}-${String(dto.CbteTipo).padStart(3, '0')}`;
  const number = dto.CbteDesde === undefined ? `${sequence}-next-${randomUUID()}` : `${sequence}-${String(dto.CbteDesde).padStart(8, '0')}`;
  const cuit = supplier.identifiers.find((i) => i.scheme === CUIT_SCHEME)?.id ?? '';
  return { number, type: String(dto.CbteTipo), fields: { ...voucher, Cuit: Number(cuit) }, payload: { cuit, voucher, requestedAt: new Date().toISOString() } };
}

export const afipDocuments: Pick<DocumentCodec, 'parse' | 'render' | 'refusal'> = {
  parse: (body, supplier) => parseVoucher(body, supplier),
  render(document) {
    const bytes = JSON.stringify((document.payload as { voucher: unknown }).voucher);
    return { bytes, mediaType: 'application/json' as const, sha256: createHash('sha256').update(bytes, 'utf8').digest('hex') };
  },
  // AFIP's refusal (`Resultado: "R"`) is its own answer, HTTP 200, as WSFEv1 gives it.
  refusal: (refusal) => (refusal.kind === 'authority_refused' ? 'answer' : undefined),
};

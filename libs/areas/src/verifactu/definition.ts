/**
 * Spain: VERI*FACTU (README.md). Every invoice is a record chained on the issuer's previous one by
 * its huella, answered at once with its uuid and QR, and sent to the AEAT by the reporting worker in
 * batches of up to 1000 records per issuer, never sooner than the wait the AEAT states.
 */
import { createHash } from 'node:crypto';
import { SecretBox, type SupplierProfile, validationError, issue } from '@einvoice/domain';
import { validateBody } from '../shared/validate';
import { reviseByOnboarding } from '../shared/revise';
import type { AreaDefinition, ParsedDocument, ReportedDocumentView } from '../registry/area';
import { verifactuSandbox, verifactuSandboxCancellations } from './migrations';
import { isValidNif, normalizeNif } from './nif';
import { qrLink, qrPng } from './qr';
import { verifactuPrintable } from './printable';
import { type ChainLink, type Party, type RegistrationContent, type VerifactuRecord, aeatDate, chainCancellation, chainRegistration } from './record';
import { checkRecord } from './rules';
import { SandboxAeat } from './sandbox-aeat';
import { VerifactuCancelBody, VerifactuOnboardingBody, VerifactuRectifyBody, VerifactuReportBody } from './schema';
import { recordNode } from './soap';
import { representativeCertificate, verifactuSettings } from './settings';
import { certificateIssues, supplierCertificates } from '../shared/certificates';
import { LiveAeat } from './live-aeat';
import { toXml } from '../shared/xml';

/** The issuer's own certificate for the AEAT's mutual TLS, sealed in `supplier_secrets` under these names. */
const CERTIFICATE_SECRET = 'verifactu.certificate';
const KEY_SECRET = 'verifactu.private_key';
const NIF_SCHEME = 'ES:NIF';

function issuerOf(supplier: SupplierProfile): Party {
  return { nif: supplier.identifiers.find((i) => i.scheme === NIF_SCHEME)?.id ?? '', name: supplier.registeredName };
}

/**
 * A cancellation's own number in the documents read model: not an invoice number (which are printable
 * ASCII, QR specification), so it never collides with one, and a second cancellation of the same
 * invoice is the 409 of a number already used.
 */
const cancellationNumber = (number: string, issueDate: string) => `anulación ${number} ${issueDate}`;

function parseCancellation(body: unknown): ParsedDocument {
  const dto = validateBody(VerifactuCancelBody, body);
  const number = dto.document_identifier.trim();
  return {
    number: cancellationNumber(number, dto.issue_date),
    type: 'anulacion',
    fields: { ...dto },
    payload: { cancel: { number, issueDate: dto.issue_date } },
    refersTo: { number, fields: { issue_date: dto.issue_date } },
  };
}

function parseRecord(body: unknown, supplier: SupplierProfile, variant?: string): ParsedDocument {
  if (variant === 'cancel') return parseCancellation(body);
  const issuer = issuerOf(supplier);
  const dto = variant === 'rectify' ? validateBody(VerifactuRectifyBody, body) : validateBody(VerifactuReportBody, body);
  const { issues, checked } = checkRecord(dto, issuer);
  if (issues.length) throw validationError(issues);
  const content: RegistrationContent = {
    issuer,
    number: dto.document_identifier.trim(),
    issueDate: dto.issue_date,
    invoiceType: dto.invoice_type,
    description: dto.description,
    ...(dto.recipient ? { recipient: { nif: normalizeNif(dto.recipient.nif), name: dto.recipient.name.trim() } } : {}),
    ...('rectified_invoices' in dto
      ? { rectification: { type: dto.rectification_type, invoices: dto.rectified_invoices.map((i) => ({ number: i.document_identifier.trim(), issueDate: i.issue_date })) } }
      : {}),
    ...(dto.previous_rejection ? { previousRejection: dto.previous_rejection } : {}),
    ...checked,
  };
  return { number: content.number, type: dto.invoice_type, fields: { ...dto }, payload: { content } };
}

/** The record (RegistroAlta) alone, as the document of its report. */
function renderRecord(xml: string) {
  return { bytes: xml, mediaType: 'application/xml' as const, sha256: createHash('sha256').update(xml, 'utf8').digest('hex') };
}

/**
 * `GET /es/verifactu/records/{uuid}`: the record and what the AEAT said of it. `aeat_status`:
 * `Pendiente` until the AEAT answered (the record waits for its issuer's next batch), then the
 * AEAT's EstadoRegistro: `Correcto`, `AceptadoConErrores` (with `aeat_errors`) or `Incorrecto` (with
 * the AEAT's error in `aeat_errors`).
 */
function presentRecord(view: ReportedDocumentView) {
  const f = view.fields as Record<string, unknown>;
  const receipt = view.authority as { estadoRegistro?: string; csv?: string; errores?: unknown[] } | null;
  const aeatStatus = view.state === 'rejected' ? 'Incorrecto' : (receipt?.estadoRegistro ?? 'Pendiente');
  const errors = view.error ? [{ code: view.error.code, message: view.error.message }] : receipt?.errores;
  return {
    status: 'success',
    data: {
      uuid: view.documentId,
      document_identifier: f.document_identifier ?? view.documentNumber,
      issue_date: f.issue_date,
      invoice_type: view.documentType,
      ...(view.documentType === 'anulacion' ? {} : { total_amount: f.total_amount, tax_total: f.tax_total }),
      hash: f.hash,
      previous_hash: f.previous_hash,
      generated_at: f.generated_at,
      aeat_status: aeatStatus,
      ...(receipt?.csv ? { aeat_csv: receipt.csv } : {}),
      ...(errors?.length ? { aeat_errors: errors } : {}),
      ...(f.qr_link ? { qr_link: f.qr_link } : {}),
    },
  };
}

function parseVerifactuOnboarding(body: unknown): SupplierProfile {
  const dto = validateBody(VerifactuOnboardingBody, body);
  const nif = normalizeNif(dto.nif);
  const issues = isValidNif(nif) ? [] : [issue('nif', 'VERIFACTU.NIF', 'nif is not a valid Spanish NIF, NIE or CIF (its control character does not match).')];
  issues.push(...certificateIssues(dto, 'VERIFACTU.CERTIFICATE'));
  if (issues.length) throw validationError(issues);
  return { registeredName: dto.name.trim(), identifiers: [{ scheme: NIF_SCHEME, id: nif }], country: 'ES' };
}

export const verifactuDefinition: AreaDefinition = {
  code: 'es',
  name: 'Spain',
  ruleSetId: 'verifactu:record:1.0',
  routePrefix: 'es/verifactu',
  supplierRef: { header: 'participant-id' },
  authority: {
    // The HTTP answer is the record (uuid, QR); the AEAT hears of it in the issuer's next batch.
    answer: 'poll',
    batch: { maxReports: 1000, maxWaitMs: 0 },
    connector: ({ query, env }) => {
      const settings = verifactuSettings(env);
      if (settings.mode === 'live') {
        return new LiveAeat({
          url: settings.aeatUrl,
          representative: representativeCertificate(env),
          issuerCertificate: supplierCertificates(query, SecretBox.fromEnv(env), { certificate: CERTIFICATE_SECRET, key: KEY_SECRET }),
          system: settings.system,
          timeoutMs: settings.aeatTimeoutMs,
        });
      }
      return new SandboxAeat(query, { waitSeconds: settings.sandboxWaitSeconds, answerDelayMs: settings.sandboxAnswerDelayMs, system: settings.system });
    },
  },
  webhookEvents: [],
  // The invoice as people read it, with the AEAT's QR and legend (printable.ts, #49).
  printable: verifactuPrintable(),
  onboarding: {
    parse: parseVerifactuOnboarding,
    // NombreRazon may change; the NIF is the issuer (its certificate, sent only by onboarding, is a secret).
    revise: reviseByOnboarding({
      fields: ['name'],
      bodyOf: (profile) => ({ nif: profile.identifiers.find((i) => i.scheme === NIF_SCHEME)?.id, name: profile.registeredName }),
      parse: parseVerifactuOnboarding,
    }),
    secrets(body) {
      const { certificate_pem, private_key_pem } = body as { certificate_pem?: string; private_key_pem?: string };
      return certificate_pem && private_key_pem ? { [CERTIFICATE_SECRET]: certificate_pem, [KEY_SECRET]: private_key_pem } : undefined;
    },
    respond: (supplierId) => ({ status: 'success', message: 'Participant onboarded.', data: { participant_id: supplierId } }),
  },
  documents: {
    parse: parseRecord,
    numberField: 'document_identifier',
    chain: {
      /** The QR depends on the invoice only (NIF, number, date, total): made once, not per attempt at the chain. */
      async prepare(document) {
        const content = (document.payload as { content?: RegistrationContent }).content;
        if (!content) return {};
        const qr_link = qrLink(verifactuSettings().qrEnvironment, { issuerNif: content.issuer.nif, number: content.number, issueDate: aeatDate(content.issueDate), total: content.total });
        return { qr_link, qr_code: await qrPng(qr_link) };
      },
      async link(document, supplier, next) {
        const settings = verifactuSettings();
        const previous = next.previous as ChainLink | undefined;
        const { content, cancel } = document.payload as { content?: RegistrationContent; cancel?: { number: string; issueDate: string } };
        const record: VerifactuRecord = cancel ? chainCancellation(issuerOf(supplier), cancel, previous, next.at) : chainRegistration(content as RegistrationContent, previous, next.at);
        const link: ChainLink = { issuerNif: record.issuer.nif, number: record.number, issueDate: record.issueDate, hash: record.hash };
        const chained = {
          document: renderRecord(toXml(recordNode(record, settings.system))),
          payload: { record } as Record<string, unknown>,
          link: { ...link },
          fields: { hash: record.hash, previous_hash: record.previous?.hash ?? null, generated_at: record.generatedAt },
        };
        // A cancellation has no QR: the invoice's own record keeps it.
        if (record.kind === 'cancellation') return chained;
        const qr = next.prepared as { qr_link: string; qr_code: string };
        return { ...chained, answer: qr, fields: { ...chained.fields, tax_total: record.taxTotal, qr_link: qr.qr_link } };
      },
    },
    present: presentRecord,
    respond: ({ documentId, answer }) => ({
      statusCode: 200,
      body: { status: 'success', message: answer?.qr_link ? { uuid: documentId, qr_link: answer.qr_link, qr_code: answer.qr_code } : { uuid: documentId } },
    }),
  },
  events: { name: 'area:es', area: 'es', streams: {}, projectors: {}, migrations: [verifactuSandbox, verifactuSandboxCancellations] },
};

/**
 * Argentina: AFIP/ARCA WSFEv1 (README.md). A voucher is authorised by AFIP before it exists: the gateway
 * records it, the reporting worker sends each taxpayer's waiting vouchers to AFIP in number order per
 * sequence, and the HTTP answer is AFIP's (`sync`): `Resultado` A with the CAE, or R with AFIP's codes
 * (HTTP 200, as AFIP answers). last-voucher, get-voucher and the catalogs are reads from AFIP.
 */
import { SecretBox } from '@einvoice/domain';
import type { AreaDefinition, ReportedDocumentView } from '../registry/area';
import { supplierCertificates } from '../shared/certificates';
import { CERTIFICATE_SECRET, CUIT_SCHEME, KEY_SECRET, afipDocuments, afipOnboarding } from './codec';
import { isValidCuit, normalizeCuit } from './cuit';
import { liveWsfe } from './live/live-afip';
import { afipAccessTickets, afipSandbox, afipVoucherNumbers } from './migrations';
import { authorisedQrLink } from './qr';
import { afipPrintable } from './printable';
import { AfipConnector } from './connector';
import { SandboxWsfe } from './sandbox-wsfe';
import { afipSettings } from './settings';
import { afipTimestamp } from './validations';
import { VoucherNumbers } from './voucher-numbers';
import type { AfipReceipt } from './wsfe';

/**
 * `create-voucher`'s answer: the seed's fields, AFIP's `Resultado`, `FeDetResp[]` and `Errors[]`, and the QR
 * link once authorised. The numbers are AFIP's answer's (a voucher sent without them has them from AFIP:
 * #44), else the caller's, else null while it waits.
 */
function present(view: ReportedDocumentView) {
  const f = view.fields as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const receipt = view.authority as AfipReceipt | null;
  const authorised = view.state === 'reported' && receipt?.Resultado === 'A';
  // AFIP's codes; an error of the service's own (no certificate for AFIP…) under its own code.
  const errors = authorised || !view.error ? [] : view.error.details?.length ? view.error.details.map((d) => ({ Code: Number(d.code), Msg: d.message })) : [{ Code: view.error.code, Msg: view.error.message }];
  const resultado = authorised ? 'A' : view.state === 'rejected' || view.state === 'invalid' ? 'R' : 'P';
  const cbteDesde: number | null = receipt?.CbteDesde ?? f.CbteDesde ?? null;
  const cbteHasta: number | null = receipt?.CbteHasta ?? f.CbteHasta ?? null;
  return {
    Cuit: f.Cuit,
    PtoVta: f.PtoVta,
    CbteTipo: f.CbteTipo,
    FchProceso: receipt?.FchProceso ?? afipTimestamp(new Date(view.updatedAt)),
    CantReg: f.CantReg,
    Cantidad: authorised ? receipt.CbteHasta - receipt.CbteDesde + 1 : 0,
    Resultado: resultado,
    FeDetResp: [{ Concepto: f.Concepto, DocTipo: f.DocTipo, DocNro: f.DocNro, CbteDesde: cbteDesde, CbteHasta: cbteHasta, CbteFch: receipt?.CbteFch ?? f.CbteFch ?? null, Resultado: resultado, CAE: authorised ? receipt.CAE : '', CAEFchVto: authorised ? receipt.CAEFchVto : '', Observaciones: receipt?.Observaciones ?? [] }],
    Errors: errors,
    ...(authorised
      ? { QrLink: authorisedQrLink(f as Parameters<typeof authorisedQrLink>[0], receipt) }
      : {}),
  };
}

export const afipDefinition: AreaDefinition = {
  code: 'ar',
  name: 'Argentina',
  ruleSetId: 'afip-wsfev1:voucher:1.0',
  routePrefix: 'ar/einvoice',
  documentsPath: 'ar/einvoice/vouchers',
  supplierRef: { header: 'cuit', identifier: { scheme: CUIT_SCHEME, normalize: normalizeCuit, valid: isValidCuit } },
  authority: {
    // AFIP's answer within AUTHORITY_WAIT_MS (then 202); vouchers go to AFIP per taxpayer, in number order per sequence.
    answer: 'sync',
    batch: { maxReports: 250, maxWaitMs: 100 },
    connector: ({ query, env }) => {
      const settings = afipSettings(env);
      const numbers = new VoucherNumbers(query);
      if (settings.mode === 'sandbox') return new AfipConnector(new SandboxWsfe(query, settings.sandboxAnswerDelayMs), numbers);
      const box = SecretBox.fromEnv(env);
      return new AfipConnector(liveWsfe(settings, { query, box, ownCertificate: supplierCertificates(query, box, { certificate: CERTIFICATE_SECRET, key: KEY_SECRET }) }), numbers);
    },
  },
  webhookEvents: [],
  // The voucher as people read it, with AFIP's QR, the CAE and its due date once authorised (printable.ts, #49).
  printable: afipPrintable,
  onboarding: afipOnboarding,
  documents: { ...afipDocuments, present },
  events: { name: 'area:ar', area: 'ar', streams: {}, projectors: {}, migrations: [afipSandbox, afipAccessTickets, afipVoucherNumbers] },
};

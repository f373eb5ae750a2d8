/**
 * Argentina: AFIP/ARCA WSFEv1 (README.md). A voucher is authorised by AFIP before it exists: the gateway
 * records it, the reporting worker sends each taxpayer's waiting vouchers to AFIP in number order per
 * sequence, and the HTTP answer is AFIP's (`sync`): `Resultado` A with the CAE, or R with AFIP's codes
 * (HTTP 200, as AFIP answers). last-voucher, get-voucher and the catalogs are reads from AFIP.
 */
import { AppError } from '@einvoice/domain';
import type { AreaDefinition, ReportedDocumentView } from '../registry/area';
import { CUIT_SCHEME, afipDocuments, afipOnboarding } from './codec';
import { isValidCuit, normalizeCuit } from './cuit';
import { afipSandbox } from './migrations';
import { voucherQrLink } from './qr';
import { AfipConnector } from './connector';
import { SandboxWsfe } from './sandbox-wsfe';
import { afipTimestamp } from './validations';
import type { AfipReceipt } from './wsfe';


/** `create-voucher`'s answer: the seed's fields, AFIP's `Resultado`, `FeDetResp[]` and `Errors[]`, and the QR link once authorised. */
function present(view: ReportedDocumentView) {
  const f = view.fields as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const receipt = view.authority as AfipReceipt | null;
  const authorised = view.state === 'reported' && receipt?.Resultado === 'A';
  const errors = authorised ? [] : (view.error?.details ?? []).map((d) => ({ Code: Number(d.code), Msg: d.message }));
  const resultado = authorised ? 'A' : view.state === 'rejected' || view.state === 'invalid' ? 'R' : 'P';
  return {
    Cuit: f.Cuit,
    PtoVta: f.PtoVta,
    CbteTipo: f.CbteTipo,
    FchProceso: receipt?.FchProceso ?? afipTimestamp(new Date(view.updatedAt)),
    CantReg: f.CantReg,
    Cantidad: authorised ? f.CbteHasta - f.CbteDesde + 1 : 0,
    Resultado: resultado,
    FeDetResp: [{ Concepto: f.Concepto, DocTipo: f.DocTipo, DocNro: f.DocNro, CbteDesde: f.CbteDesde, CbteHasta: f.CbteHasta, CbteFch: receipt?.CbteFch ?? f.CbteFch ?? null, Resultado: resultado, CAE: authorised ? receipt.CAE : '', CAEFchVto: authorised ? receipt.CAEFchVto : '', Observaciones: receipt?.Observaciones ?? [] }],
    Errors: errors,
    ...(authorised
      ? { QrLink: voucherQrLink({ cuit: f.Cuit, PtoVta: f.PtoVta, CbteTipo: f.CbteTipo, CbteNro: f.CbteDesde, CbteFch: receipt.CbteFch, ImpTotal: f.ImpTotal, MonId: f.MonId, MonCotiz: f.MonCotiz, DocTipo: f.DocTipo, DocNro: f.DocNro, CAE: receipt.CAE }) }
      : {}),
  };
}

export const afipDefinition: AreaDefinition = {
  code: 'ar',
  name: 'Argentina',
  ruleSetId: 'afip-wsfev1:voucher:1.0',
  routePrefix: 'ar/einvoice',
  documentsPath: 'ar/einvoice/vouchers',
  supplierKey: { header: 'cuit', scheme: CUIT_SCHEME, normalize: normalizeCuit, valid: isValidCuit },
  authority: {
    // AFIP's answer within AUTHORITY_WAIT_MS (then 202); vouchers go to AFIP per taxpayer, in number order per sequence.
    answer: 'sync',
    batch: { maxReports: 250, maxWaitMs: 100 },
    connector: ({ query, env }) => {
      if (env.AFIP_MODE === 'live') throw new AppError('internal', 'AFIP.LIVE_NOT_BUILT', 'AFIP_MODE=live needs the WSAA/WSFEv1 SOAP client, not built yet (libs/areas/src/afip/README.md).', { retriable: false });
      return new AfipConnector(new SandboxWsfe(query, Number(env.AFIP_SANDBOX_DELAY_MS ?? 0)));
    },
  },
  webhookEvents: [],
  onboarding: afipOnboarding,
  documents: { ...afipDocuments, present },
  events: { name: 'area:ar', area: 'ar', streams: {}, projectors: {}, migrations: [afipSandbox] },
};

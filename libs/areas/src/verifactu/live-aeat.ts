/**
 * The AEAT's VERI*FACTU web service, live (README.md "Live mode"): SOAP 1.1 over HTTPS with mutual TLS
 * (the certificate of the issuer or of its representative: a colaborador social or an apoderado,
 * AEAT error 4112 otherwise). One `RegFactuSistemaFacturacion` per call, checked before it leaves (the
 * sandbox's own structural check, and with CONFORMANCE_DIR set the AEAT's XSD: schema-check.ts): a
 * message the AEAT refuses for its schema still spends the records' place in the chain. The answer is read per record (response.ts); a record the AEAT already
 * holds (3000 with `EstadoRegistroDuplicado` Correcta or AceptadaConErrores) is the answer to a resend
 * after a lost answer, so it counts as taken: that is how this connector recovers (`recover` asks
 * nothing; the resend is harmless).
 */
import { AppError } from '@einvoice/domain';
import type { AuthorityConnector, AuthorityOutcome, AuthorityReport, BatchOutcome } from '../registry/authority';
import { AuthorityHttp, type AuthorityTls } from '../shared/authority-http';
import { aeatDate } from './record';
import { type ResponseLine, parseAeatResponse } from './response';
import type { VerifactuPayload, VerifactuReceipt } from './sandbox-aeat';
import { type InvoicingSystem, soapRequest, submissionXml } from './soap';
import { schemaProblems } from './schema-check';

/** The web service (Veri-Factu_Descripcion_SWeb.txt; entity-seal certificates use www10/prewww10). */
export const AEAT_ENDPOINTS = {
  test: 'https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
  production: 'https://www1.agenciatributaria.gob.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
} as const;

export interface LiveAeatOptions {
  readonly url: string;
  /**
   * The representative's certificate (PEM), for issuers without their own; `ca`: trust for the
   * server when it is not the AEAT's public one (the tests' fake).
   */
  readonly representative: { readonly cert?: string; readonly key?: string; readonly ca?: string };
  /** The issuer's own certificate, when it gave one at onboarding (sealed in `supplier_secrets`). */
  readonly issuerCertificate?: (supplierId: string) => Promise<{ readonly cert: string; readonly key: string } | undefined>;
  readonly system: InvoicingSystem;
  readonly timeoutMs: number;
}

const unavailable = (message: string) => new AppError('unavailable', 'VERIFACTU.AEAT_UNAVAILABLE', message, { retriable: true });

export class LiveAeat implements AuthorityConnector<VerifactuPayload, VerifactuReceipt> {
  private readonly http: AuthorityHttp;

  constructor(private readonly options: LiveAeatOptions) {
    this.http = new AuthorityHttp({ area: 'es', authority: 'The AEAT', timeoutMs: options.timeoutMs, codes: { unavailable: 'VERIFACTU.AEAT_UNAVAILABLE' } });
  }

  async submit(report: AuthorityReport<VerifactuPayload>): Promise<AuthorityOutcome<VerifactuReceipt>> {
    return (await this.submitBatch([report])).outcomes[report.reportId];
  }

  /** Nothing to ask: a resend is answered 3000 "already held" and counted as taken (see above). */
  async recover(): Promise<undefined> {
    return undefined;
  }

  async submitBatch(reports: readonly AuthorityReport<VerifactuPayload>[]): Promise<BatchOutcome<VerifactuReceipt>> {
    const records = reports.map((r) => r.payload.record);
    const issuer = records[0].issuer;
    const problems = await schemaProblems(submissionXml(issuer, records, this.options.system));
    if (problems.length) throw new AppError('validation', 'VERIFACTU.4102', `The message does not pass the AEAT's schema: ${problems.slice(0, 3).join('; ')}`, { retriable: false });
    const tls = await this.certificateFor(reports[0].supplierId);
    const answer = parseAeatResponse(await this.http.soap({ name: 'RegFactuSistemaFacturacion', url: this.options.url, action: '', envelope: soapRequest(issuer, records, this.options.system), tls }));
    if (answer.kind === 'fault') {
      // 4xxx: the AEAT refused the whole send for what it is (schema, certificate holder, limits): a retry cannot fix it.
      if (answer.code?.startsWith('4')) throw new AppError('validation', `VERIFACTU.${answer.code}`, answer.message, { retriable: false });
      throw unavailable(`The AEAT answered a SOAP Fault: ${answer.message}`);
    }
    const outcomes: Record<string, AuthorityOutcome<VerifactuReceipt>> = {};
    for (const report of reports) {
      const record = report.payload.record;
      const line = answer.lines.find((l) => l.number === record.number && l.issueDate === aeatDate(record.issueDate) && (l.operation === 'Anulacion') === (record.kind === 'cancellation'));
      // A record the answer does not name stays unanswered: the batch sweep asks again later.
      if (line) outcomes[report.reportId] = outcomeOf(line, answer.csv ?? '');
    }
    return { outcomes, ...(answer.waitSeconds !== undefined ? { nextCallAfterMs: answer.waitSeconds * 1000 } : {}) };
  }

  /** The issuer's own certificate, else the representative's; neither: retried until one is configured (nothing is lost). */
  private async certificateFor(supplierId: string): Promise<AuthorityTls> {
    const own = await this.options.issuerCertificate?.(supplierId);
    const { cert, key, ca } = this.options.representative;
    if (own) return { ...own, ca };
    if (cert && key) return { cert, key, ca };
    throw new AppError('unavailable', 'VERIFACTU.NO_CERTIFICATE', 'No certificate for the AEAT: the issuer gave none at onboarding and no representative certificate is configured (VERIFACTU_CERT_FILE).', { retriable: true });
  }
}

function outcomeOf(line: ResponseLine, csv: string): AuthorityOutcome<VerifactuReceipt> {
  if (line.state === 'Correcto') return { kind: 'accepted', final: true, receipt: { estadoRegistro: 'Correcto', csv } };
  if (line.state === 'AceptadoConErrores') {
    return { kind: 'accepted', final: true, receipt: { estadoRegistro: 'AceptadoConErrores', csv, errores: [{ code: line.errorCode ?? '', message: line.errorDescription ?? '' }] } };
  }
  // Already held from an earlier send of the same record (its answer lost): taken.
  if (line.errorCode === '3000' && (line.duplicateState === 'Correcta' || line.duplicateState === 'AceptadaConErrores')) {
    return { kind: 'accepted', final: true, receipt: { estadoRegistro: line.duplicateState === 'Correcta' ? 'Correcto' : 'AceptadoConErrores', csv } };
  }
  return { kind: 'rejected', error: { code: line.errorCode ?? 'Incorrecto', message: line.errorDescription ?? 'The AEAT refused the record.' } };
}

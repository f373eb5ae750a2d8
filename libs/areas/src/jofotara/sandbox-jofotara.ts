/**
 * JoFotara in sandbox (README.md "Sandbox"): the portal's behaviour (portal.ts) over state in
 * PostgreSQL, called in-process. There is no official sandbox (the ISTD publishes none), so this one
 * behaves as the guide and the SDK document it. Credentials: the pair `bad`/`bad` is refused (403).
 * Failure injection by invoice number: `JOF-DOWN-` (JoFotara's `invoice-persist` 500 twice, retried),
 * `JOF-REFUSE-` (NOT_SUBMITTED); `answerDelayMs` delays each answer after the portal stored the invoice
 * (a worker killed meanwhile loses the answer, not the invoice).
 */
import { AppError, type SecretBox } from '@einvoice/domain';
import type { ConnectorQuery } from '../registry/area';
import type { AuthorityConnector, AuthorityError, AuthorityOutcome, AuthorityReport, CredentialCheck } from '../registry/authority';
import { openSupplierSecrets } from '../shared/supplier-secrets';
import { checkInvoiceXml } from './checks';
import { CLIENT_ID_SECRET, CLIENT_SECRET_SECRET } from './codec';
import { type PortalStore, type StoredInvoice, submitToPortal } from './portal';
import { type JofotaraReceipt, jofotaraAnswer, outcomeOf } from './response';

const DOWN_FAILURES = 2;

export const REFUSED_CREDENTIALS: AuthorityError = { code: 'JOFOTARA.403', message: 'JoFotara refused the client id and secret (HTTP 403): take them from the portal\'s "Link a device" screen.', path: 'client_id' };

class PgPortalStore implements PortalStore {
  constructor(private readonly query: ConnectorQuery) {}

  private async one(where: string, params: unknown[]): Promise<StoredInvoice | undefined> {
    const [row] = await this.query<{ tin: string; invoice_id: string; uuid: string; number: string; qr: string; signed: string; lines: Record<string, number>; returned: Record<string, number>; type_code: string }>(
      `SELECT tin, invoice_id, uuid, number, qr, signed, lines, returned, type_code FROM jofotara_sandbox_invoices WHERE ${where}`,
      params,
    );
    return row && { tin: row.tin, id: row.invoice_id, uuid: row.uuid, number: row.number, qr: row.qr, signed: row.signed, lines: row.lines, returned: row.returned, typeCode: row.type_code };
  }

  byId = (tin: string, id: string) => this.one('tin = $1 AND invoice_id = $2', [tin, id]);
  byUuid = (tin: string, uuid: string) => this.one('tin = $1 AND uuid = $2', [tin, uuid]);

  async nextNumber(tin: string): Promise<string> {
    const [{ last }] = await this.query<{ last: number }>(
      `INSERT INTO jofotara_sandbox_counters (tin, last) VALUES ($1, 1) ON CONFLICT (tin) DO UPDATE SET last = jofotara_sandbox_counters.last + 1 RETURNING last`,
      [tin],
    );
    return `EIN${String(last).padStart(5, '0')}`;
  }

  async insert(i: StoredInvoice): Promise<boolean> {
    const rows = await this.query(
      `INSERT INTO jofotara_sandbox_invoices (tin, invoice_id, uuid, number, qr, signed, type_code, lines) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING 1`,
      [i.tin, i.id, i.uuid, i.number, i.qr, i.signed, i.typeCode, JSON.stringify(i.lines)],
    );
    return rows.length > 0;
  }

  async setReturned(tin: string, uuid: string, before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>): Promise<boolean> {
    const rows = await this.query(`UPDATE jofotara_sandbox_invoices SET returned = $4 WHERE tin = $1 AND uuid = $2 AND returned = $3::jsonb RETURNING 1`, [tin, uuid, JSON.stringify(before), JSON.stringify(after)]);
    return rows.length > 0;
  }
}

export class SandboxJofotara implements AuthorityConnector<unknown, JofotaraReceipt> {
  private readonly store: PgPortalStore;

  constructor(
    private readonly query: ConnectorQuery,
    private readonly box: SecretBox,
    private readonly answerDelayMs = 0,
  ) {
    this.store = new PgPortalStore(query);
  }

  async verifyCredentials(secrets: Readonly<Record<string, string>>): Promise<CredentialCheck> {
    return secrets[CLIENT_ID_SECRET] === 'bad' && secrets[CLIENT_SECRET_SECRET] === 'bad' ? { refused: REFUSED_CREDENTIALS } : {};
  }

  async submit(report: AuthorityReport): Promise<AuthorityOutcome<JofotaraReceipt>> {
    const clientId = (await openSupplierSecrets(this.query, this.box, report.supplierId, [CLIENT_ID_SECRET])).get(CLIENT_ID_SECRET);
    if (!clientId) throw new AppError('validation', 'JOFOTARA.NO_CREDENTIALS', 'The supplier has no JoFotara client id and secret.', { retriable: false });
    const xml = report.document.bytes;
    const number = checkInvoiceXml(xml).invoice?.id ?? '';
    const [{ calls }] = await this.query<{ calls: number }>(
      `INSERT INTO jofotara_sandbox_calls (report_id, calls) VALUES ($1, 1) ON CONFLICT (report_id) DO UPDATE SET calls = jofotara_sandbox_calls.calls + 1 RETURNING calls`,
      [report.reportId],
    );
    if (number.startsWith('JOF-DOWN-') && calls <= DOWN_FAILURES) {
      return outcomeOf(jofotaraAnswer('NOT_SUBMITTED', [{ type: 'ERROR', status: 'ERROR', EINV_CODE: 'invoice-persist', EINV_CATEGORY: 'Persistence', EINV_MESSAGE: '500 : {/ingestion/invoices} (sandbox: JOF-DOWN-)' }]));
    }
    if (number.startsWith('JOF-REFUSE-')) {
      return outcomeOf(jofotaraAnswer('NOT_SUBMITTED', [{ type: 'ERROR', status: 'ERROR', EINV_CODE: 'sandboxRefusal', EINV_CATEGORY: 'Business rules', EINV_MESSAGE: 'Refused (sandbox: JOF-REFUSE-).' }]));
    }
    const answer = await submitToPortal(this.store, clientId, xml);
    // JoFotara has stored the invoice; its answer takes this long to come back (a worker killed meanwhile loses it).
    if (this.answerDelayMs) await new Promise((resolve) => setTimeout(resolve, this.answerDelayMs));
    return outcomeOf(answer.body);
  }

  /** After a lost answer: JoFotara holds the invoice if its ID + UUID are there (a resend would say ALREADY_SUBMITTED too). */
  async recover(report: AuthorityReport): Promise<AuthorityOutcome<JofotaraReceipt> | undefined> {
    const read = checkInvoiceXml(report.document.bytes).invoice;
    const held = read ? await this.store.byId(read.tin, read.id) : undefined;
    if (!held || held.uuid !== read?.uuid) return undefined;
    return { kind: 'accepted', final: true, receipt: { status: 'ALREADY_SUBMITTED', uuid: held.uuid, number: held.number, qr: held.qr, signedInvoice: held.signed } };
  }
}

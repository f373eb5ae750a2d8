/**
 * FIRS in sandbox (README.md "Sandbox"): the MBS behaviour of portal.ts over state in PostgreSQL, called
 * in-process. It issues each taxpayer a business id and an 8-hex service id at its first login (the
 * password `bad` is refused), validates IRNs and invoices with the rules we know, signs each IRN once,
 * and keeps a QR key pair made once. Failure injection by document identifier, per step:
 * `FIRS-REFUSE-IRN-`, `FIRS-REFUSE-INVOICE-`, `FIRS-REFUSE-SIGN-` (a 400 at that step) and
 * `FIRS-DOWN-SIGN-` (signing unavailable twice, then done); `answerDelayMs` delays the signing's answer
 * after FIRS signed (a worker killed meanwhile loses the answer, not the signature).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { ConnectorQuery } from '../registry/area';
import type { FirsCryptoKeys, FirsTransport } from './connector';
import { type FirsAnswer, type FirsStore, type SignedInvoice, type Taxpayer, authenticate, confirm, firsRefusal, newBusinessId, newServiceId, sign, updatePayment, validateInvoice, validateIrn } from './portal';

class PgFirsStore implements FirsStore {
  constructor(private readonly query: ConnectorQuery) {}

  async taxpayer(tin: string, email: string): Promise<Taxpayer> {
    await this.query(`INSERT INTO firs_sandbox_taxpayers (tin, email, business_id, service_id) VALUES ($1, $2, $3, $4) ON CONFLICT (tin) DO NOTHING`, [tin, email, newBusinessId(), newServiceId()]);
    const [row] = await this.query<{ tin: string; email: string; business_id: string; service_id: string }>(`SELECT * FROM firs_sandbox_taxpayers WHERE tin = $1`, [tin]);
    return { tin: row.tin, email: row.email, businessId: row.business_id, serviceId: row.service_id };
  }

  async taxpayerByBusiness(businessId: string): Promise<Taxpayer | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(businessId)) return undefined;
    const [row] = await this.query<{ tin: string; email: string; business_id: string; service_id: string }>(`SELECT * FROM firs_sandbox_taxpayers WHERE business_id = $1`, [businessId]);
    return row && { tin: row.tin, email: row.email, businessId: row.business_id, serviceId: row.service_id };
  }

  async signed(irn: string): Promise<SignedInvoice | undefined> {
    const [row] = await this.query<{ irn: string; business_id: string; signed_at: Date; payment_status: string; reference: string | null }>(`SELECT * FROM firs_sandbox_signed WHERE irn = $1`, [irn]);
    return row && { irn: row.irn, businessId: row.business_id, signedAt: new Date(row.signed_at).toISOString(), paymentStatus: row.payment_status, ...(row.reference ? { reference: row.reference } : {}) };
  }

  async sign(invoice: SignedInvoice): Promise<boolean> {
    const rows = await this.query(`INSERT INTO firs_sandbox_signed (irn, business_id, signed_at, payment_status) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING 1`, [invoice.irn, invoice.businessId, invoice.signedAt, invoice.paymentStatus]);
    return rows.length > 0;
  }

  async setPayment(irn: string, status: string, reference?: string): Promise<boolean> {
    const rows = await this.query(`UPDATE firs_sandbox_signed SET payment_status = $2, reference = $3 WHERE irn = $1 RETURNING 1`, [irn, status, reference ?? null]);
    return rows.length > 0;
  }
}

const DOWN_FAILURES = 2;

export class SandboxFirsTransport implements FirsTransport {
  private readonly store: PgFirsStore;

  constructor(
    private readonly query: ConnectorQuery,
    private readonly answerDelayMs = 0,
  ) {
    this.store = new PgFirsStore(query);
  }

  authenticate = (body: { email: string; password: string; tin: string }) => authenticate(this.store, body);
  confirm = (irn: string) => confirm(this.store, irn);
  updatePayment = (irn: string, body: { payment_status: string; reference?: string }) => updatePayment(this.store, irn, body);

  async validateIrn(body: { invoice_reference: string; business_id: string; irn: string }): Promise<FirsAnswer> {
    if (body.invoice_reference.startsWith('FIRS-REFUSE-IRN-')) return firsRefusal(400, 'irn', 'IRN refused (sandbox: FIRS-REFUSE-IRN-).');
    return validateIrn(this.store, body);
  }

  async validateInvoice(invoice: Record<string, unknown>): Promise<FirsAnswer> {
    if (String(invoice.irn ?? '').startsWith('FIRSREFUSEINVOICE')) return firsRefusal(400, 'invoice', 'Invoice refused (sandbox: FIRS-REFUSE-INVOICE-).');
    return validateInvoice(this.store, invoice);
  }

  async sign(invoice: Record<string, unknown>): Promise<FirsAnswer> {
    // The IRN keeps the document identifier's letters and digits only: FIRS-REFUSE-SIGN-1 → FIRSREFUSESIGN1-….
    const reference = String(invoice.irn ?? '');
    if (reference.startsWith('FIRSREFUSESIGN')) return firsRefusal(400, 'sign', 'Signing refused (sandbox: FIRS-REFUSE-SIGN-).');
    if (reference.startsWith('FIRSDOWNSIGN')) {
      const [{ calls }] = await this.query<{ calls: number }>(
        `INSERT INTO firs_sandbox_calls (irn, step, calls) VALUES ($1, 'sign', 1) ON CONFLICT (irn, step) DO UPDATE SET calls = firs_sandbox_calls.calls + 1 RETURNING calls`,
        [String(invoice.irn)],
      );
      if (calls <= DOWN_FAILURES) return { status: 503, body: { code: 503, message: 'Service unavailable (sandbox: FIRS-DOWN-SIGN-).' } };
    }
    const answer = await sign(this.store, invoice);
    if (this.answerDelayMs) await new Promise((resolve) => setTimeout(resolve, this.answerDelayMs));
    return answer;
  }

  /** The sandbox's QR key pair and certificate: made once, kept (every process of the stack uses the same). */
  async keys(): Promise<FirsCryptoKeys> {
    const [row] = await this.query<{ public_key: string; certificate: string }>(`SELECT public_key, certificate FROM firs_sandbox_keys WHERE id = 1`);
    if (row) return { publicKey: row.public_key, certificate: row.certificate };
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
    await this.query(`INSERT INTO firs_sandbox_keys (id, public_key, private_key, certificate) VALUES (1, $1, $2, $3) ON CONFLICT DO NOTHING`, [pair.publicKey, pair.privateKey, randomBytes(24).toString('base64')]);
    return this.keys();
  }
}

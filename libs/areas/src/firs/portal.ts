/**
 * FIRS MBS on the wire (README.md "FIRS"; `shared/notes/national-systems-detail.md` section 4), as the
 * sandbox and the tests' wire-format fake both serve it, over a store: `utilities/authenticate`,
 * `invoice/irn/validate`, `invoice/validate`, `invoice/sign`, `invoice/confirm/{irn}`,
 * `invoice/update/{irn}`. Answers `{code, data}`; refusals `{code, message, error: {id, handler, details,
 * public_message}}`. An IRN is signed at most once: a second sign is refused, and `confirm` tells what
 * FIRS holds.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { validateBody } from '../shared/validate';
import { checkInvoice } from './rules';
import { FirsInvoiceBody } from './schema';

export interface FirsAnswer {
  readonly status: number;
  /** The wait a 429's Retry-After states (live only). */
  readonly retryAfterMs?: number;
  readonly body: { readonly code: number; readonly data?: unknown; readonly message?: string; readonly error?: { readonly id: string; readonly handler: string; readonly details: string; readonly public_message: string } };
}

export interface Taxpayer {
  readonly tin: string;
  readonly email: string;
  readonly businessId: string;
  /** 8 upper-case hex characters, the IRN's middle part. */
  readonly serviceId: string;
}

export interface SignedInvoice {
  readonly irn: string;
  readonly businessId: string;
  readonly signedAt: string;
  readonly paymentStatus: string;
  readonly reference?: string;
}

export interface FirsStore {
  /** The taxpayer of this TIN, registered on its first login (FIRS issues its business and service ids). */
  taxpayer(tin: string, email: string): Promise<Taxpayer>;
  taxpayerByBusiness(businessId: string): Promise<Taxpayer | undefined>;
  signed(irn: string): Promise<SignedInvoice | undefined>;
  /** False when the IRN was signed already (never twice). */
  sign(invoice: SignedInvoice): Promise<boolean>;
  setPayment(irn: string, status: string, reference?: string): Promise<boolean>;
}

export const newServiceId = () => randomBytes(4).toString('hex').toUpperCase();
export const newBusinessId = () => randomUUID();

const ok = (code: number, data: unknown = { ok: true }): FirsAnswer => ({ status: code, body: { code, data } });
export const firsRefusal = (status: number, handler: string, message: string): FirsAnswer => ({
  status,
  body: { code: status, message, error: { id: randomUUID(), handler, details: message, public_message: message } },
});

/** Sandbox credentials: the password `bad` is refused, as FIRS refuses wrong ones. */
export async function authenticate(store: FirsStore, body: { email?: string; password?: string; tin?: string }): Promise<FirsAnswer> {
  if (!body.email || !body.password || body.password === 'bad') return firsRefusal(401, 'authentication', 'Invalid email or password.');
  const taxpayer = await store.taxpayer(body.tin ?? body.email, body.email);
  return ok(200, { ok: true, business_id: taxpayer.businessId, service_id: taxpayer.serviceId });
}

/** `{invoice_reference, business_id, irn}`: the form, the business's service id and date, and not signed yet. */
export async function validateIrn(store: FirsStore, body: { invoice_reference?: string; business_id?: string; irn?: string }): Promise<FirsAnswer> {
  const taxpayer = body.business_id ? await store.taxpayerByBusiness(body.business_id) : undefined;
  if (!taxpayer) return firsRefusal(400, 'irn', `Unknown business_id ${body.business_id ?? ''}.`);
  const match = /^([A-Za-z0-9]+)-([0-9A-F]{8})-(\d{8})$/.exec(body.irn ?? '');
  if (!match) return firsRefusal(400, 'irn', `IRN ${body.irn ?? ''} is not {invoice number}-{service id}-{YYYYMMDD}.`);
  if (match[2] !== taxpayer.serviceId) return firsRefusal(400, 'irn', `IRN ${body.irn}: ${match[2]} is not this business's service id.`);
  if (match[1] !== String(body.invoice_reference ?? '').replace(/[^A-Za-z0-9]/g, '')) return firsRefusal(400, 'irn', `IRN ${body.irn} does not carry the invoice reference ${body.invoice_reference ?? ''}.`);
  if (await store.signed(body.irn!)) return firsRefusal(400, 'irn', `IRN ${body.irn} already exists.`);
  return ok(200);
}

/** The invoice as FIRS checks it: its shape, codes and totals (rules.ts), and a known business. */
export async function validateInvoice(store: FirsStore, body: Record<string, unknown>): Promise<FirsAnswer> {
  if (!body.business_id || !(await store.taxpayerByBusiness(String(body.business_id)))) return firsRefusal(400, 'invoice', `Unknown business_id ${String(body.business_id ?? '')}.`);
  let dto: FirsInvoiceBody;
  try {
    dto = validateBody(FirsInvoiceBody, { ...body, document_identifier: String(body.irn ?? '').split('-')[0] || 'x', issue_time: body.issue_time });
  } catch (error) {
    const issues = (error as { issues?: Array<{ path: string; message: string }> }).issues ?? [];
    return firsRefusal(400, 'invoice', issues.map((i) => `${i.path}: ${i.message}`).join('; ') || 'Invalid invoice.');
  }
  const { issues } = checkInvoice(dto);
  if (issues.length) return firsRefusal(400, 'invoice', issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  return ok(200);
}

export async function sign(store: FirsStore, body: Record<string, unknown>): Promise<FirsAnswer> {
  const checked = await validateInvoice(store, body);
  if (checked.status !== 200) return checked;
  const irn = String(body.irn ?? '');
  const signed = await store.sign({ irn, businessId: String(body.business_id), signedAt: new Date().toISOString(), paymentStatus: String(body.payment_status ?? 'PENDING') });
  if (!signed) return firsRefusal(400, 'sign', `IRN ${irn} is already signed.`);
  return ok(201);
}

export async function confirm(store: FirsStore, irn: string): Promise<FirsAnswer> {
  const signed = await store.signed(irn);
  if (!signed) return firsRefusal(404, 'confirm', `No signed invoice ${irn}.`);
  return ok(200, { irn, status: 'SIGNED', signed_at: signed.signedAt, payment_status: signed.paymentStatus, ...(signed.reference ? { reference: signed.reference } : {}) });
}

export async function updatePayment(store: FirsStore, irn: string, body: { payment_status?: string; reference?: string }): Promise<FirsAnswer> {
  if (!['PENDING', 'PAID', 'CANCELED'].includes(String(body.payment_status))) return firsRefusal(400, 'update', 'payment_status must be PENDING, PAID or CANCELED.');
  if (!(await store.setPayment(irn, String(body.payment_status), body.reference))) return firsRefusal(404, 'update', `No signed invoice ${irn}.`);
  return ok(200);
}

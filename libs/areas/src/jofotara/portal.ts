/**
 * JoFotara's behaviour on `POST /core/invoices/` (README.md "Sandbox"), over a store: the sandbox keeps
 * it in PostgreSQL (sandbox-jofotara.ts), the tests' wire-format fake in memory. It reads the invoice
 * from its XML (checks.ts), applies the class a device is registered for, the duplicate rule (ID + UUID:
 * the same pair again is ALREADY_SUBMITTED, the same ID with another UUID is refused), the credit-note
 * rule (quantities of the original's lines only, never more than were sold), and answers as JoFotara
 * does: HTTP 200 with SUBMITTED and the signed invoice, QR, EINV_NUM and UUID; HTTP 400 NOT_SUBMITTED
 * with the errors.
 */
import { createHash } from 'node:crypto';
import { type JofotaraMessage, type ReadInvoice, checkInvoiceXml } from './checks';
import { type JofotaraResponse, jofotaraAnswer } from './response';

export interface StoredInvoice {
  readonly tin: string;
  readonly id: string;
  readonly uuid: string;
  readonly number: string;
  readonly qr: string;
  readonly signed: string;
  /** Quantity sold per line id (invoices). */
  readonly lines: Readonly<Record<string, number>>;
  /** Quantity returned so far per line id (by credit notes). */
  readonly returned: Readonly<Record<string, number>>;
  readonly typeCode: string;
}

export interface PortalStore {
  byId(tin: string, id: string): Promise<StoredInvoice | undefined>;
  byUuid(tin: string, uuid: string): Promise<StoredInvoice | undefined>;
  /** EIN00001, EIN00002… per taxpayer. */
  nextNumber(tin: string): Promise<string>;
  /** False when another invoice took (tin, id) first. */
  insert(invoice: StoredInvoice): Promise<boolean>;
  /** Compare-and-set of an invoice's returned quantities; false when they changed meanwhile. */
  setReturned(tin: string, uuid: string, before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>): Promise<boolean>;
}

/** The classes a sandbox device is registered for: general sales, and income or special sales when its client id says so. */
export function registeredClasses(clientId: string): string[] {
  return ['2', ...(/income/i.test(clientId) ? ['1'] : []), ...(/special/i.test(clientId) ? ['3'] : [])];
}

const persist = (message: string): JofotaraMessage => ({ type: 'ERROR', status: 'ERROR', EINV_CODE: 'invoice-persist', EINV_CATEGORY: 'Persistence', EINV_MESSAGE: message });
const rule = (code: string, message: string): JofotaraMessage => ({ type: 'ERROR', status: 'ERROR', EINV_CODE: code, EINV_CATEGORY: 'Business rules', EINV_MESSAGE: message });

/** JoFotara's QR text: TLV (tag, length, UTF-8 value) of seller, TIN, date, total, tax, UUID and a digest, base64. */
export function qrOf(invoice: ReadInvoice): string {
  const fields = [invoice.sellerName, invoice.tin, invoice.issueDate, invoice.payable, invoice.tax, invoice.uuid, createHash('sha256').update(`${invoice.tin}|${invoice.id}|${invoice.uuid}`).digest('base64')];
  return Buffer.concat(fields.flatMap((value, i) => {
    const bytes = Buffer.from(value, 'utf8');
    return [Buffer.from([i + 1, bytes.length]), bytes];
  })).toString('base64');
}

export async function submitToPortal(store: PortalStore, clientId: string, xml: string): Promise<{ httpStatus: number; body: JofotaraResponse }> {
  const refuse = (errors: JofotaraMessage[]) => ({ httpStatus: 400, body: jofotaraAnswer('NOT_SUBMITTED', errors) });
  const { invoice, errors } = checkInvoiceXml(xml);
  if (!invoice || errors.length) return refuse(errors);
  if (!registeredClasses(clientId).includes(invoice.typeName.slice(2))) return refuse([persist('This user is not authorized to submit this type of invoice.')]);
  const earlier = await store.byId(invoice.tin, invoice.id);
  if (earlier) {
    if (earlier.uuid !== invoice.uuid) return refuse([rule('duplicateInvoiceNumber', `Invoice number ${invoice.id} was already submitted with another UUID.`)]);
    return { httpStatus: 200, body: jofotaraAnswer('ALREADY_SUBMITTED', [], { uuid: earlier.uuid, number: earlier.number, qr: earlier.qr, signed: earlier.signed }) };
  }
  if (invoice.typeCode === '381') {
    const problem = await returnLines(store, invoice);
    if (problem) return refuse([problem]);
  }
  const stored: StoredInvoice = {
    tin: invoice.tin,
    id: invoice.id,
    uuid: invoice.uuid,
    number: await store.nextNumber(invoice.tin),
    qr: qrOf(invoice),
    signed: Buffer.from(`${xml}<!-- signed by the JoFotara sandbox: ${createHash('sha256').update(xml).digest('hex')} -->`).toString('base64'),
    lines: Object.fromEntries(invoice.lines.map((l) => [l.id, l.quantity])),
    returned: {},
    typeCode: invoice.typeCode,
  };
  if (!(await store.insert(stored))) return submitToPortal(store, clientId, xml);
  return { httpStatus: 200, body: jofotaraAnswer('SUBMITTED', [], { uuid: stored.uuid, number: stored.number, qr: stored.qr, signed: stored.signed }) };
}

/** A credit note returns quantities of its original's lines (its line ids), never more than were sold. */
async function returnLines(store: PortalStore, note: ReadInvoice): Promise<JofotaraMessage | undefined> {
  if (!note.original) return rule('billingReference', 'A credit note refers to its original invoice (BillingReference).');
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const original = await store.byUuid(note.tin, note.original.uuid);
    if (!original || original.typeCode !== '388' || original.id !== note.original.id) return rule('billingReference', `No invoice ${note.original.id} with UUID ${note.original.uuid} of this taxpayer.`);
    const after: Record<string, number> = { ...original.returned };
    for (const line of note.lines) {
      const sold = original.lines[line.id];
      if (sold === undefined) return rule('returnedLine', `Line ${line.id} is not a line of invoice ${original.id}.`);
      after[line.id] = (after[line.id] ?? 0) + line.quantity;
      if (after[line.id] > sold + 1e-9) return rule('returnedQuantity', `Line ${line.id}: ${after[line.id]} returned in all, more than the ${sold} sold.`);
    }
    if (await store.setReturned(note.tin, original.uuid, original.returned, after)) return undefined;
  }
  return persist('500 : {concurrent credit notes}');
}

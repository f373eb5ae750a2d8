/**
 * Nigeria: FIRS (now NRS) MBS (README.md). Every invoice is validated, IRN-stamped and signed by FIRS
 * before it exists: the gateway records it, the reporting worker runs FIRS's steps, and the HTTP answer
 * is the seed's full response once FIRS signed (`sync`), or FIRS's refusal as a 400.
 */
import { AppError } from '@einvoice/domain';
import type { AreaDefinition, ReportedDocumentView } from '../registry/area';
import { formatAmount as money } from '../shared/money';
import { firsDocuments, firsOnboarding } from './codec';
import { FIRS_STEPS, FirsConnector, type FirsReceipt } from './connector';
import { LiveFirsTransport } from './live-firs';
import { firsSandbox } from './migrations';
import { firsRevision } from './revise';
import type { FirsTotals } from './rules';
import { SandboxFirsTransport } from './sandbox-firs';
import { firsSettings } from './settings';
import { firsPrintable } from './printable';


/** The stored invoice as the seed lists it (camelCase; money as strings). */
function record(view: ReportedDocumentView) {
  const f = view.fields as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const receipt = view.authority as FirsReceipt | null;
  const totals = f.totals as FirsTotals;
  const status = view.state === 'reported' ? 'SIGNED' : view.state === 'rejected' || view.state === 'invalid' ? 'REJECTED' : 'PENDING_SIGNATURE';
  return {
    id: view.documentId,
    irn: f.irn,
    businessId: f.business_id,
    invoiceReference: view.documentNumber,
    issueDate: f.issue_date,
    dueDate: f.due_date ?? null,
    issueTime: f.issue_time,
    invoiceTypeCode: f.invoice_type_code,
    paymentStatus: f.payment_status,
    ...(f.payment_reference ? { paymentReference: f.payment_reference } : {}),
    note: f.note ?? null,
    taxPointDate: null,
    documentCurrencyCode: f.document_currency_code,
    taxCurrencyCode: f.tax_currency_code,
    accountingCost: null,
    buyerReference: f.buyer_reference ?? null,
    orderReference: null,
    actualDeliveryDate: f.invoice_delivery_period?.end_date ?? null,
    paymentTermsNote: null,
    accountingSupplierParty: f.accounting_supplier_party ?? null,
    accountingCustomerParty: f.accounting_customer_party,
    lineExtensionAmount: totals.lineExtension,
    taxExclusiveAmount: totals.taxExclusive,
    taxInclusiveAmount: totals.taxInclusive,
    payableAmount: totals.payable,
    status,
    authorityResponse: receipt?.authorityResponse ?? (view.error ? { code: view.error.code, message: view.error.message } : null),
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
    invoiceLines: (f.invoice_line as Array<Record<string, any>>).map((line, i) => ({ // eslint-disable-line @typescript-eslint/no-explicit-any
      id: `${view.documentId}-${i + 1}`,
      invoiceId: view.documentId,
      hsnCode: line.hsn_code,
      productCategory: line.product_category,
      discountRate: money(line.discount_rate ?? 0),
      discountAmount: money(line.discount_amount ?? 0),
      feeRate: money(line.fee_rate ?? 0),
      feeAmount: money(line.fee_amount ?? 0),
      invoicedQuantity: String(line.invoiced_quantity),
      lineExtensionAmount: money(line.line_extension_amount),
      item: line.item,
      price: line.price,
    })),
  };
}

/** `generate`'s answer (the seed's full response) and `GET /api/invoice/{irn}`. */
function present(view: ReportedDocumentView, variant?: string) {
  const receipt = view.authority as FirsReceipt | null;
  if (variant === 'answer') {
    return {
      status: 'submitted',
      data: {
        irn: receipt?.irn ?? view.fields.irn,
        authority_response: receipt?.authorityResponse ?? null,
        qr_code: receipt?.qr ?? null,
        steps_completed: [...FIRS_STEPS],
        message: 'Invoice IRN validated, invoice validated, signed by FIRS and stored.',
        invoice: record(view),
        timestamp: new Date().toISOString(),
      },
    };
  }
  return { status: 'success', data: { ...record(view), ...(receipt?.qr ? { qrCode: receipt.qr } : {}) } };
}

export const firsDefinition: AreaDefinition = {
  code: 'ng',
  name: 'Nigeria',
  ruleSetId: 'firs-mbs:invoice:1.0',
  routePrefix: 'api',
  supplierRef: { header: 'participant-id' },
  documentsPath: 'api/invoice',
  authority: {
    // FIRS's steps run in the reporting worker; the answer waits for them (AUTHORITY_WAIT_MS), then 202.
    answer: 'sync',
    connector: ({ query, env }) => {
      const settings = firsSettings(env);
      if (settings.mode === 'live') {
        if (!settings.apiKey || !settings.apiSecret || !settings.publicKey || !settings.certificate) {
          throw new AppError('internal', 'FIRS.NOT_CONFIGURED', 'FIRS_MODE=live needs FIRS_API_KEY, FIRS_API_SECRET, FIRS_PUBLIC_KEY and FIRS_CERTIFICATE.', { retriable: false });
        }
        const transport = new LiveFirsTransport({ baseUrl: settings.url, apiKey: settings.apiKey, apiSecret: settings.apiSecret, timeoutMs: settings.timeoutMs });
        return new FirsConnector(transport, async () => ({ publicKey: settings.publicKey, certificate: settings.certificate }));
      }
      const sandbox = new SandboxFirsTransport(query, settings.sandboxAnswerDelayMs);
      return new FirsConnector(sandbox, () => sandbox.keys());
    },
  },
  // The invoice as people read it, with the signed QR and the IRN once FIRS signed it (printable.ts, #49).
  printable: firsPrintable,
  webhookEvents: [],
  onboarding: { ...firsOnboarding, revise: firsRevision },
  documents: { ...firsDocuments, present },
  events: { name: 'area:ng', area: 'ng', streams: {}, projectors: {}, migrations: [firsSandbox] },
};

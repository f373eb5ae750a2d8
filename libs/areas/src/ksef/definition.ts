/**
 * Poland: KSeF 2.0 (README.md). Invoices are rendered as FA(3), answered `Submitted` at once, and
 * sent to KSeF by the reporting worker; their status becomes `Accepted` with the KSeF number, or
 * `Rejected` with KSeF's reason.
 */
import type { AreaDefinition, ReportedDocumentView } from '../registry/area';
import { SecretBox } from '@einvoice/domain';
import { openSupplierSecrets } from '../shared/supplier-secrets';
import { KSEF_TOKEN_SECRET, ksefDocuments, ksefOnboarding } from './codec';
import { LiveKsef } from './live/live-ksef';
import { ksefSandbox, ksefSandboxProcessing } from './migrations';
import { ksefQrLinkOfHash } from './qr';
import { ksefPrintable } from './printable';
import { SandboxKsef } from './sandbox-ksef';
import { ksefSettings } from './settings';

/** The seed's `Status`: Submitted until KSeF's verdict, then Accepted or Rejected. */
function statusOf(state: string): 'Submitted' | 'Accepted' | 'Rejected' {
  if (state === 'reported') return 'Accepted';
  if (state === 'rejected' || state === 'invalid') return 'Rejected';
  return 'Submitted';
}

/**
 * `transport_mode: peppol`: where the Peppol copy is (README.md "Peppol copy"): `AwaitingKsef` until
 * KSeF accepts, `Withheld` when it rejected (the copy never leaves), then the delivery's own
 * `Scheduled` | `Delivered` | `Failed` (with `DeliveryFailure`), as BE/DE/SG show it.
 */
function peppolOf(view: ReportedDocumentView, status: 'Submitted' | 'Accepted' | 'Rejected') {
  if (view.peppol) return { DeliveryStatus: view.peppol.deliveryStatus, ...(view.peppol.failure ? { DeliveryFailure: view.peppol.failure } : {}) };
  return { DeliveryStatus: status === 'Rejected' ? 'Withheld' : status === 'Accepted' ? 'Scheduled' : 'AwaitingKsef' };
}

/** `status/{id}` and `retrieve/{id}` (README.md "Routes"). */
function present(view: ReportedDocumentView, variant?: string) {
  const f = view.fields as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const receipt = view.authority as { ksefNumber?: string } | null;
  const status = statusOf(view.state);
  const ksef = status === 'Accepted' && receipt?.ksefNumber ? { KsefNumber: receipt.ksefNumber } : {};
  const reason = status === 'Rejected' && view.error ? { Reason: { code: view.error.code, message: view.error.message } } : {};
  const peppol = f.transport_mode === 'peppol' ? { Peppol: peppolOf(view, status) } : {};
  if (variant === 'status') return { status: 'success', data: { DocumentID: view.documentId, Status: status, ...ksef, ...reason, ...peppol } };
  return {
    status: 'success',
    data: {
      DocumentID: view.documentId,
      ID: view.documentNumber,
      DocumentType: view.documentType,
      IssueDate: f.IssueDate,
      DocumentCurrencyCode: f.DocumentCurrencyCode,
      TotalIncludingVat: f.TotalIncludingVat,
      CustomerParty: { RegisteredName: f.CustomerParty?.RegisteredName, address: f.CustomerParty?.address },
      Status: status,
      ...ksef,
      ...reason,
      ...peppol,
      ...(view.sha256 ? { QrLink: ksefQrLinkOfHash(ksefSettings().environment, f.SellerNip, f.IssueDate, view.sha256) } : {}),
    },
  };
}

export const ksefDefinition: AreaDefinition = {
  code: 'pl',
  name: 'Poland',
  ruleSetId: 'ksef-fa3:invoice:1.0E',
  routePrefix: 'pl/einvoice',
  authority: {
    // `Submitted` at once; the verdict comes from KSeF's invoice status, polled every 500 ms.
    answer: 'poll',
    poll: { intervalMs: 500, maxPolls: 1200 },
    connector: ({ query, env }) => {
      const settings = ksefSettings(env);
      if (settings.mode === 'live') {
        const box = SecretBox.fromEnv(env);
        return new LiveKsef({
          baseUrl: settings.url,
          timeoutMs: settings.timeoutMs,
          sessionIdleMs: settings.sessionIdleMs,
          tokenOf: async (supplierId) => (await openSupplierSecrets(query, box, supplierId, [KSEF_TOKEN_SECRET])).get(KSEF_TOKEN_SECRET),
        });
      }
      return new SandboxKsef(query, settings.sandboxLimits, settings.sandboxAnswerDelayMs);
    },
  },
  webhookEvents: [],
  // The invoice as people read it, with the KSeF number and KOD I once accepted (printable.ts, #49).
  printable: ksefPrintable,
  onboarding: ksefOnboarding,
  documents: {
    ...ksefDocuments,
    numberField: 'ID',
    // Seed 002: status, retrieve and access-code/send carry only x-svc-auth-key (README "Headers").
    lookup: { byIdAlone: true },
    present,
    respond: ({ documentId }) => ({ statusCode: 202, body: { status: 'success', data: { DocumentID: documentId, Status: 'Submitted' } } }),
  },
  events: { name: 'area:pl', area: 'pl', streams: {}, projectors: {}, migrations: [ksefSandbox, ksefSandboxProcessing] },
};

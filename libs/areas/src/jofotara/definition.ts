/**
 * Jordan: JoFotara (README.md). Every invoice is cleared by the portal before it exists: the gateway
 * records it in the supplier's device sequence (ICV), the reporting worker sends it, and the HTTP answer
 * waits for JoFotara's (`sync`): its uuid and QR, or its refusal as a 400.
 */
import { SecretBox } from '@einvoice/domain';
import type { AreaDefinition, ReportedDocumentView } from '../registry/area';
import { openSupplierSecrets } from '../shared/supplier-secrets';
import { CLIENT_ID_SECRET, CLIENT_SECRET_SECRET, jofotaraDocuments, jofotaraOnboarding } from './codec';
import { LiveJofotara } from './live-jofotara';
import { jofotaraSandbox } from './migrations';
import { jofotaraRevision } from './revise';
import type { JofotaraReceipt } from './response';
import { SandboxJofotara } from './sandbox-jofotara';
import { jofotaraSettings } from './settings';
import { jofotaraPrintable } from './printable';

/** `generate`'s answer (the seed), and `GET /jo/einvoice/invoices/{uuid}` (README.md "Routes"). */
function present(view: ReportedDocumentView, variant?: string) {
  const receipt = view.authority as JofotaraReceipt | null;
  if (variant === 'answer') return { status: 'success', message: { uuid: receipt?.uuid || view.documentId, qr_code: receipt?.qr ?? null } };
  const f = view.fields as Record<string, unknown>;
  const status = view.state === 'reported' ? (receipt?.status ?? 'SUBMITTED') : view.state === 'rejected' || view.state === 'invalid' ? 'NOT_SUBMITTED' : 'PENDING';
  return {
    status: 'success',
    data: {
      uuid: view.documentId,
      kind: view.documentType,
      ...(view.documentType === 'credit_note'
        ? { credit_note_ref_number: view.documentNumber, original_uuid: f.original_uuid, reason: f.reason, returned_lines: f.returned_lines }
        : { invoice_ref_number: view.documentNumber, payment_method: f.payment_method, buyer_details: f.buyer_details, lineitems: f.lineitems }),
      issue_date: f.issue_date,
      issue_time: f.issue_time,
      icv: f.icv,
      totals: f.totals,
      jofotara_status: status,
      ...(receipt?.number ? { jofotara_number: receipt.number } : {}),
      ...(receipt?.qr ? { qr_code: receipt.qr } : {}),
      ...(view.error ? { errors: view.error.details?.length ? view.error.details : [{ code: view.error.code, message: view.error.message }] } : {}),
    },
  };
}

export const jofotaraDefinition: AreaDefinition = {
  code: 'jo',
  name: 'Jordan',
  ruleSetId: 'jofotara:invoice:1.4',
  routePrefix: 'jo',
  supplierRef: { header: 'participant-id' },
  documentsPath: 'jo/einvoice/invoices',
  authority: {
    // The answer is JoFotara's (uuid and QR, or its refusal), within AUTHORITY_WAIT_MS; then 202 with the link.
    answer: 'sync',
    connector: ({ query, env }) => {
      const settings = jofotaraSettings(env);
      const box = SecretBox.fromEnv(env);
      if (settings.mode === 'live') {
        return new LiveJofotara({
          baseUrl: settings.url,
          timeoutMs: settings.timeoutMs,
          credentialsOf: async (supplierId) => {
            const secrets = await openSupplierSecrets(query, box, supplierId, [CLIENT_ID_SECRET, CLIENT_SECRET_SECRET]);
            const [clientId, secret] = [secrets.get(CLIENT_ID_SECRET), secrets.get(CLIENT_SECRET_SECRET)];
            return clientId && secret ? { clientId, secret } : undefined;
          },
        });
      }
      return new SandboxJofotara(query, box, settings.sandboxAnswerDelayMs);
    },
  },
  // The invoice as people read it, with the QR JoFotara returned once accepted (printable.ts, #49).
  printable: jofotaraPrintable,
  webhookEvents: [],
  onboarding: { ...jofotaraOnboarding, revise: jofotaraRevision },
  documents: { ...jofotaraDocuments, present },
  events: { name: 'area:jo', area: 'jo', streams: {}, projectors: {}, migrations: [jofotaraSandbox] },
};

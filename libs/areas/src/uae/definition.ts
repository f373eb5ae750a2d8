/**
 * The United Arab Emirates (seed 001, issue 10; README.md): PINT AE documents exchanged over Peppol
 * (ICD 0235) and reported to the FTA as Tax Data Documents, by the sender's access point (C2) and,
 * for participants hosted here, by the receiver's (C3). Its routes are its own (`/v1/participants`,
 * apps/gateway/src/areas/uae); onboarding and submission go through the platform's pipeline
 * (codec.ts), which brings the Peppol delivery, the report pipeline, the documents read model and
 * the migrations.
 */
import type { AreaDefinition } from '../registry/area';
import { ublPrintable } from '../printable/from-ubl';
import { uaeDocuments, uaeExchange, uaeOnboarding } from './codec';
import { uaeMigrations } from './migrations';
import { uaeFtaConnector, uaeFtaMigrations } from './reporting';
import { aedTotal } from './reporting/source-document';

export const uaeDefinition: AreaDefinition = {
  code: 'ae',
  name: 'United Arab Emirates',
  ruleSetId: 'pint-ae:billing:2026.5',
  routePrefix: 'v1/participants',
  authority: {
    // 202 now; the FTA's Message Level Status on the TDD comes later (polled).
    answer: 'poll',
    poll: { intervalMs: 1_000, maxPolls: 600 },
    connector: uaeFtaConnector,
  },
  onboarding: uaeOnboarding,
  documents: uaeDocuments,
  // Delivered over Peppol AND reported to the FTA: both tracks in the submission's one transaction.
  exchange: uaeExchange,
  // The PINT AE document as a person reads it: a "Tax invoice" (VAT Executive Regulation art. 59), labels in
  // English and Arabic, its TRNs; where the document is in another currency, the AED tax total (IBT-111), the AED
  // total with tax (BTAE-20) and the rate (TaxExchangeRate) as the document states them; no QR (#49).
  printable: ublPrintable({ languages: ['en', 'ar'], taxIdLabel: 'TRN', invoiceTitle: 'taxInvoice', taxCurrencyTotalWithTax: aedTotal }),
  peppol: { customizationId: 'urn:peppol:pint:billing-1@ae-1', profileId: 'urn:peppol:bis:billing', ruleSetId: 'pint-ae:billing:2026.5' },
  // Documents embed their attachments (issue 10: bodies up to 30 MiB on this area only).
  largeBodies: { bytes: 30 * 1024 * 1024, pathPrefixes: ['v1/participants', 'v1/unified/participants'] },
  // No webhooks: UAE callers read the event feeds (seed: "Nothing is pushed to the caller").
  webhookEvents: [],
  events: { name: 'area:ae', area: 'ae', streams: {}, projectors: {}, migrations: [...uaeMigrations, ...uaeFtaMigrations] },
};

import { AppError } from '@einvoice/domain';
import type { AreaDefinition, DocumentCodec, OnboardingCodec, ReportedDocumentView } from '@einvoice/areas';

/** An area served by the pipeline must declare how it reads bodies (a registry mistake, found at the first request of that area). */
export function codecs(area: AreaDefinition): { readonly onboarding: OnboardingCodec; readonly documents: DocumentCodec } {
  if (!area.onboarding || !area.documents) {
    throw new AppError('internal', 'AREA.NO_CODEC', `Area ${area.code} declares no onboarding/documents codec.`, { retriable: false });
  }
  return { onboarding: area.onboarding, documents: area.documents };
}

/** Where one of the area's documents is read (`documentsPath`, default `<routePrefix>/documents`): the link of a 202. */
export function documentHref(area: AreaDefinition, documentId: string): string {
  return `/${area.documentsPath ?? `${area.routePrefix}/documents`}/${documentId}`;
}

/** A document as the area shows it (`documents.present`, `variant` naming the route), else `{status: 'success', data: view}`. */
export function presented(documents: DocumentCodec, view: ReportedDocumentView, variant?: string): unknown {
  return documents.present ? documents.present(view, variant) : { status: 'success', data: view };
}

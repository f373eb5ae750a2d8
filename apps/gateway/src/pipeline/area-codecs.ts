import { AppError, type SupplierProfile } from '@einvoice/domain';
import type { AreaDefinition, DocumentCodec, OnboardingCodec, ParsedDocument, RenderedDocument, ReportedDocumentView } from '@einvoice/areas';

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

/** The document as its authority is sent it (`documents.render`; a registry mistake without one, found at the area's first report). */
export function renderedForAuthority(area: AreaDefinition, documents: DocumentCodec, parsed: ParsedDocument, supplier: SupplierProfile, documentId: string): RenderedDocument {
  if (!documents.render) {
    throw new AppError('internal', 'AREA.NO_CODEC', `Area ${area.code} reports to an authority but declares no documents.render.`, { retriable: false });
  }
  return documents.render(parsed, supplier, documentId);
}

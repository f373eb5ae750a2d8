import { AppError, type SupplierProfile } from '@einvoice/domain';
import type { AreaDefinition, DocumentCodec, DocumentRefusal, OnboardingCodec, ParsedDocument, RenderedDocument, ReportedDocumentView } from '@einvoice/areas';

/**
 * An area served by the pipeline must declare how it reads bodies (a registry mistake, found at the first
 * request of that area); its onboarding only where the pipeline onboards its suppliers (Malaysia onboards its own).
 */
export function codecs(area: AreaDefinition): { readonly onboarding: OnboardingCodec | undefined; readonly documents: DocumentCodec } {
  if (!area.documents) throw new AppError('internal', 'AREA.NO_CODEC', `Area ${area.code} declares no documents codec.`, { retriable: false });
  return { onboarding: area.onboarding, documents: area.documents };
}

/** The area's onboarding codec (the pipeline's onboarding route). */
export function onboardingCodec(area: AreaDefinition): OnboardingCodec {
  const { onboarding } = codecs(area);
  if (!onboarding) throw new AppError('internal', 'AREA.NO_CODEC', `Area ${area.code} declares no onboarding codec.`, { retriable: false });
  return onboarding;
}

/**
 * The area's own wording of one of the pipeline's refusals (`documents.refusal`), if it has one;
 * `'answer'` where the area answers the authority's refusal of a submission as a result (Argentina).
 */
export function refusalOf(area: AreaDefinition, refusal: Extract<DocumentRefusal, { kind: 'authority_refused' }>): AppError | 'answer' | undefined;
export function refusalOf(area: AreaDefinition, refusal: Exclude<DocumentRefusal, { kind: 'authority_refused' }>): AppError | undefined;
export function refusalOf(area: AreaDefinition, refusal: DocumentRefusal): AppError | 'answer' | undefined {
  const own = area.documents?.refusal?.(refusal);
  return own === 'answer' && refusal.kind !== 'authority_refused' ? undefined : own;
}

/** How long a request waits for the authority's answer (`authority.waitMs`, else `sync`'s AUTHORITY_WAIT_MS); undefined: it does not. */
export function waitOf(area: AreaDefinition, syncWaitMs: number): number | undefined {
  return area.authority.waitMs ?? (area.authority.answer === 'sync' ? syncWaitMs : undefined);
}

/** Where one of the area's documents is read (`documentsPath`, default `<routePrefix>/documents`): the link of a 202. */
export function documentHref(area: AreaDefinition, documentId: string): string {
  return `/${area.documentsPath ?? `${area.routePrefix}/documents`}/${documentId}`;
}

/** A document as the area shows it (`documents.present`, `variant` naming the route), else `{status: 'success', data: view}`. */
export function presented(documents: DocumentCodec, view: ReportedDocumentView, variant?: string): unknown {
  return documents.present ? documents.present(view, variant) : { status: 'success', data: view };
}

/**
 * The document as its authority is sent it: as `parse` rendered it when it did (`ParsedDocument.rendered`),
 * else `documents.render` (a registry mistake without one, found at the area's first report).
 */
export function renderedForAuthority(area: AreaDefinition, documents: DocumentCodec, parsed: ParsedDocument, supplier: SupplierProfile, documentId: string): RenderedDocument {
  if (parsed.rendered) return parsed.rendered;
  if (!documents.render) {
    throw new AppError('internal', 'AREA.NO_CODEC', `Area ${area.code} reports to an authority but declares no documents.render.`, { retriable: false });
  }
  return documents.render(parsed, supplier, documentId);
}

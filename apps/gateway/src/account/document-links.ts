import { type AreaDefinition, supplierHeaderOf } from '@einvoice/areas';
import { documentHref } from '../pipeline/area-codecs';
import { servedByPipelineRoutes } from '../areas/area-controllers';

/**
 * Where a document is read on its area's own routes (the seeds' paths, which differ by area), its file as
 * sent (the XML; Malaysia: the document as submitted, JSON or XML), and its cancellation where the area has
 * a route for one. An area not named here reads its documents at `documentHref` (`<documentsPath>/{id}`,
 * default `<routePrefix>/documents/{id}`), has no file route, and cancels at the pipeline's own
 * `<routePrefix>/documents/{id}/cancel` where those routes serve it (area-routes.controller.ts). `{id}` is
 * the document's id; `{supplier_id}` its supplier's (UAE's routes name the participant, which is the
 * supplier, in the path).
 */
const ROUTES: Readonly<Record<string, { readonly document: string; readonly xml?: string; readonly cancel?: (d: LinkedDocument) => CancelLink | null }>> = {
  be: { document: '/be/einvoice/get-document/{id}', xml: '/be/einvoice/get-document/{id}/xml' },
  de: { document: '/de/einvoice/get-document/{id}', xml: '/de/einvoice/get-document/{id}/xml' },
  sg: { document: '/sg/einvoice/get-document/{id}', xml: '/sg/einvoice/get-document/{id}/xml' },
  // Cancel Document (MyInvois SDK), through the pipeline: submission.controller.ts `documents/:id/cancel`.
  my: { document: '/api/einvoice/documents/{id}', xml: '/api/einvoice/documents/{id}/raw', cancel: (d) => reasonCancel(`/api/einvoice/documents/${d.id}/cancel`) },
  ae: { document: '/v1/participants/{supplier_id}/documents/{id}', xml: '/v1/participants/{supplier_id}/documents/{id}/xml' },
  // A RegistroAnulacion names the invoice by its number and issue date (verifactu.controller.ts `cancel`); a
  // cancellation record is cancelled by nothing.
  es: {
    document: '/es/verifactu/records/{id}',
    cancel: (d) => (d.type === 'anulacion' || d.issue_date === null ? null : { method: 'POST', href: '/es/verifactu/cancel', body: { document_identifier: d.number, issue_date: d.issue_date }, fields: [] }),
  },
  pl: { document: '/pl/einvoice/retrieve/{id}', xml: '/pl/einvoice/retrieve/{id}/xml' },
  jo: { document: '/jo/einvoice/invoices/{id}', xml: '/jo/einvoice/invoices/{id}/xml' },
};

/** What of a document its links are made of (a row of the account's list). */
export interface LinkedDocument {
  readonly id: string;
  readonly supplier_id: string;
  readonly direction: 'outgoing' | 'incoming';
  readonly number: string;
  readonly type: string;
  readonly issue_date: string | null;
}

/**
 * How to ask the document's authority to cancel it (#50), as a form: POST `href` with the JSON `body` plus
 * each of `fields`, text the caller writes (`reason`: 1–300 characters, sent to the authority), with the
 * supplier header of `supplier_header`. The answer is the area's own: 200 cancelled, 202 while the authority
 * has not answered, 409 where the document's state or the authority refuses it.
 */
export interface CancelLink {
  readonly method: 'POST';
  readonly href: string;
  readonly body: Readonly<Record<string, string>>;
  readonly fields: readonly 'reason'[];
}

const reasonCancel = (href: string): CancelLink => ({ method: 'POST', href, body: {}, fields: ['reason'] });

/** The links of a document's detail. */
export interface DocumentLinks {
  readonly document: string;
  readonly xml: string | null;
  /** The header those routes name the supplier by (its value: the supplier id, or the identifier the area asks for). */
  readonly supplier_header: string | null;
  /** The document as people read it (#49), where its area prints its documents (`printable`). */
  readonly pdf: string | null;
  readonly html: string | null;
  /** Its cancellation (#50): null where its area has no cancel route, for a document received, and for a cancellation record. */
  readonly cancel: CancelLink | null;
  /** The request as the service accepted it (#50, `GET /v1/documents/{id}/request`): null for a document received. */
  readonly request: string | null;
}

/** Where the document is read; an area this process does not serve (a test-only one) has no routes here. */
export function linksOf(area: AreaDefinition | undefined, d: LinkedDocument): DocumentLinks | null {
  if (!area) return null;
  const fill = (template: string) => template.replace('{id}', d.id).replace('{supplier_id}', d.supplier_id);
  const routes = ROUTES[area.code];
  const sent = d.direction === 'outgoing';
  const cancel = routes ? routes.cancel?.(d) : servedByPipelineRoutes(area.code) ? reasonCancel(`/${area.routePrefix}/documents/${d.id}/cancel`) : null;
  return {
    document: routes ? fill(routes.document) : documentHref(area, d.id),
    xml: routes?.xml ? fill(routes.xml) : null,
    supplier_header: area.code === 'ae' ? null : supplierHeaderOf(area),
    pdf: area.printable ? `/v1/documents/${d.id}/pdf` : null,
    html: area.printable ? `/v1/documents/${d.id}/html` : null,
    cancel: sent ? (cancel ?? null) : null,
    request: sent ? `/v1/documents/${d.id}/request` : null,
  };
}

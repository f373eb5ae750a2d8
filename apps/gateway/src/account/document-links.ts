import { type AreaDefinition, supplierHeaderOf } from '@einvoice/areas';
import { documentHref } from '../pipeline/area-codecs';

/**
 * Where a document is read on its area's own routes (the seeds' paths, which differ by area), and its
 * file as sent (the XML; Malaysia: the document as submitted, JSON or XML). An area not named here reads
 * its documents at `documentHref` (`<documentsPath>/{id}`, default `<routePrefix>/documents/{id}`) and
 * has no file route. `{id}` is the document's id; `{supplier_id}` its supplier's (UAE's routes name the
 * participant, which is the supplier, in the path).
 */
const ROUTES: Readonly<Record<string, { readonly document: string; readonly xml?: string }>> = {
  be: { document: '/be/einvoice/get-document/{id}', xml: '/be/einvoice/get-document/{id}/xml' },
  de: { document: '/de/einvoice/get-document/{id}', xml: '/de/einvoice/get-document/{id}/xml' },
  sg: { document: '/sg/einvoice/get-document/{id}', xml: '/sg/einvoice/get-document/{id}/xml' },
  my: { document: '/api/einvoice/documents/{id}', xml: '/api/einvoice/documents/{id}/raw' },
  ae: { document: '/v1/participants/{supplier_id}/documents/{id}', xml: '/v1/participants/{supplier_id}/documents/{id}/xml' },
  es: { document: '/es/verifactu/records/{id}' },
  pl: { document: '/pl/einvoice/retrieve/{id}', xml: '/pl/einvoice/retrieve/{id}/xml' },
  jo: { document: '/jo/einvoice/invoices/{id}', xml: '/jo/einvoice/invoices/{id}/xml' },
};

/** The links of a document's detail. */
export interface DocumentLinks {
  readonly document: string;
  readonly xml: string | null;
  /** The header those routes name the supplier by (its value: the supplier id, or the identifier the area asks for). */
  readonly supplier_header: string | null;
  /** The document as people read it (#49), where its area prints its documents (`printable`). */
  readonly pdf: string | null;
  readonly html: string | null;
}

/** Where the document is read; an area this process does not serve (a test-only one) has no routes here. */
export function linksOf(area: AreaDefinition | undefined, documentId: string, supplierId: string): DocumentLinks | null {
  if (!area) return null;
  const fill = (template: string) => template.replace('{id}', documentId).replace('{supplier_id}', supplierId);
  const routes = ROUTES[area.code];
  return {
    document: routes ? fill(routes.document) : documentHref(area, documentId),
    xml: routes?.xml ? fill(routes.xml) : null,
    supplier_header: area.code === 'ae' ? null : supplierHeaderOf(area),
    pdf: area.printable ? `/v1/documents/${documentId}/pdf` : null,
    html: area.printable ? `/v1/documents/${documentId}/html` : null,
  };
}

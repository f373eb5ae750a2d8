/** The MyInvois XML form: the document tree serialised as UTF-8 UBL 2.1 XML. */
import { toXml } from '../shared/xml';
import { documentTree } from './document-tree';
import type { MyInvoisDocument } from './schema-document';
import type { MyInvoisSupplier } from './schema-onboarding';

/** UBL 2.1 Invoice XML (MyInvois profile) of a parsed document. */
export function renderMyInvoisXml(doc: MyInvoisDocument, supplier: MyInvoisSupplier): string {
  return toXml(documentTree(doc, supplier));
}

/**
 * The document type ids served by the SMP match the official examples: each example's root
 * namespace, root element and CustomizationID give `<namespace>::<root>##<CustomizationID>::2.1`
 * (Peppol Policy for use of identifiers 4.x), which a participant of that jurisdiction must
 * receive and a participant of another must not.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { conformanceDir } from '../conformance/official-validators';
import { findReceivableDocumentType } from './document-types';

const malaysian = 'iso6523-actorid-upis::0230:c25845632020';
const singaporean = 'iso6523-actorid-upis::0195:sguen200212345z';

const examples = (dir: string): string[] =>
  fs.readdirSync(path.join(conformanceDir, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.xml'))
    .map((f) => path.join(dir, f));

/** The document type id an official example is sent under. */
function documentTypeIdOf(file: string): string {
  const xml = fs.readFileSync(path.join(conformanceDir, file), 'utf8');
  const root = /<(?:\w+:)?(Invoice|CreditNote)\b[^>]*\sxmlns(?::\w+)?="(urn:oasis:names:specification:ubl:schema:xsd:(?:Invoice|CreditNote)-2)"/.exec(xml);
  const customization = /<cbc:CustomizationID>([^<]+)<\/cbc:CustomizationID>/.exec(xml);
  if (!root || !customization) throw new Error(`${file}: no UBL root or CustomizationID`);
  return `${root[2]}::${root[1]}##${customization[1].trim()}::2.1`;
}

describe('official PINT MY 1.3.1 examples (billing and self-billing)', () => {
  it.each(examples('pint-my/1.3.1/examples'))('%s is a document type a Malaysian participant receives, and a Singaporean one does not', (file) => {
    const id = documentTypeIdOf(file);
    expect(findReceivableDocumentType(malaysian, id)?.value).toBe(id);
    expect(findReceivableDocumentType(singaporean, id)).toBeUndefined();
  });
});

describe('official PINT SG 1.4.1 examples', () => {
  it.each(examples('pint-sg/1.4.1/examples'))('%s is a document type a Singaporean participant receives, and a Malaysian one does not', (file) => {
    const id = documentTypeIdOf(file);
    expect(findReceivableDocumentType(singaporean, id)?.value).toBe(id);
    expect(findReceivableDocumentType(malaysian, id)).toBeUndefined();
  });
});

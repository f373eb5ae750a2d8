/**
 * #44 item 4: every optional block of the UAE request, sent alone (and with everything it may
 * hold), either renders UBL that passes the official UBL 2.1 XSD (shared/conformance/ubl-2.1) or is
 * refused in phase 1 at the path of what the XSD requires once the block exists. The variants are
 * read from the request schema (fixtures/optional-blocks.ts), on each kind of document the type
 * code selects (Invoice, CreditNote, self-billed, out of scope), in AED and in another currency.
 * Free text is sent as `Sample` wherever the schema takes it: this is how the test found that
 * embedded content which is not xsd:base64Binary was accepted (now refused, schema-fields.ts `Base64`).
 * Then the document with everything, each free text in turn empty: an empty text writes no element,
 * which the XSD may require (identifiers, the card: refused, `Identifier` and `RequiredInBlock` in schema-fields.ts).
 */
import { validateUblXsdAll } from '../conformance/official-validators';
import { parseUaeDocument } from './document';
import { issuer } from './fixtures/bodies';
import { RequestVariants, type Pinned } from './fixtures/optional-blocks';
import { renderUae } from './render';
import { UaeDocumentBody } from './schema';

jest.setTimeout(300_000);

/** What each kind needs beyond the minimal document: the receiver's Peppol id, a line category (schema.ts), a credit note reason. */
const bases: readonly [string, Pinned][] = [
  ['380', { document_type: '380', 'lines[0].tax_category': 'S' }],
  ['381', { document_type: '381', credit_note_reason_code: 'DL8.61.1.A', 'lines[0].tax_category': 'S' }],
  // 81 is the one type whose lines may leave the VAT block out (ibr-123-ae): the category is a variant there.
  ['81', { document_type: '81' }],
  ['389', { document_type: '389', 'lines[0].tax_category': 'S' }],
  ['261', { document_type: '261', 'lines[0].tax_category': 'S' }],
  // A foreign currency renders a tax currency, an exchange rate and a second tax total in AED.
  ['380 in USD', { document_type: '380', document_currency: 'USD', 'lines[0].tax_category': 'S' }],
  // An exempt line renders no rate but an exemption reason.
  ['480 with an exempt line', { document_type: '480', 'lines[0].tax_category': 'E' }],
].map(([name, pinned], i) => [
  name as string,
  { document_identifier: `OPT-${i}`, 'receiving_party.peppol_id': '0235:1345678901', ...(pinned as Pinned) },
]);

const card = 'payment_means[0].card';
const embedded = 'document_references[0].embedded_document';
/**
 * The refusals: a UBL 2.1 XSD element (or attribute) that is mandatory once its parent is rendered.
 * Those fields are required by the schema itself (`RequiredInBlock`: cac:CardAccount's
 * cbc:PrimaryAccountNumberID and cbc:NetworkID, cbc:EmbeddedDocumentBinaryObject@mimeCode and the
 * seed's filename), so each block's minimal form carries them (document.unit.spec.ts refuses a block
 * without them); what is left to find is an empty text, which writes no element.
 */
const refused: Record<string, string[]> = {
  // The document with everything, one text empty. Refused where the XSD requires the element (an
  // identifier, the card), or the seed requires the field.
  ...Object.fromEntries([
    'document_identifier', // the document's cbc:ID
    `${card}.primary_account_number`,
    `${card}.network_id`,
    'lines[0].line_id', // the line's cbc:ID (left out, the lines are numbered)
    'document_references[0].document_identifier', // cac:AdditionalDocumentReference/cbc:ID
    `${embedded}.mime_code`,
    `${embedded}.filename`,
    'other_references.contract_reference', // cac:ContractDocumentReference/cbc:ID, written with contract_value
  ].map((path) => [`${path} = ''`, [path]])),
};

describe('#44 every optional block of the UAE request, sent alone, passes the UBL 2.1 XSD or is refused at its path', () => {
  it.each(bases)('given a %s, when each optional block is sent alone, then the XSD passes or phase 1 names what is missing', async (_name, pinned) => {
    const refusals: Record<string, string[]> = {};
    const accepted: { name: string; xml: string }[] = [];
    const walk = new RequestVariants(pinned);
    const variants = [...walk.variants(UaeDocumentBody), ...walk.blanks(UaeDocumentBody)];
    for (const [name, body] of variants) {
      const parsed = parseUaeDocument(body);
      if ('issues' in parsed) refusals[name] = parsed.issues.map((i) => i.path).sort();
      else accepted.push({ name, xml: renderUae(parsed.document, issuer, { uuid: 'b7f74c42-5e5a-4b9d-8f00-000000000044' }).xml });
    }
    const results = await validateUblXsdAll(accepted.map((a) => a.xml));
    const failures = accepted.flatMap((a, i) => (results[i].valid ? [] : [`${a.name}: ${results[i].errors.join(' | ')}`]));
    expect(variants.length).toBeGreaterThan(100);
    expect(failures).toEqual([]);
    expect(refusals).toEqual(refused);
  });
});

import { renderHtml } from '../printable/html';
import type { StoredDocument } from '../registry/printable';
import { uaeDefinition } from './definition';
import { parseUaeDocument } from './document';
import { uaeExamples } from './examples';
import { issuer } from './fixtures/bodies';
import { renderUae } from './render';

/** The stored document of a UAE body, its XML as rendered for Peppol. */
function stored(body: Record<string, unknown>): StoredDocument {
  const parsed = parseUaeDocument(body);
  if ('issues' in parsed) throw new Error(JSON.stringify(parsed.issues));
  const { xml } = renderUae(parsed.document, issuer, { uuid: 'b7f74c42-5e5a-4b9d-8f00-000000000001' });
  return {
    id: 'x', number: String(body.document_identifier), type: '380', direction: 'outgoing', fields: body, receipt: null, reportState: 'pending', renderedSha256: null, xml,
    createdAt: '2026-07-01T10:00:00Z', supplier: { registeredName: issuer.legalName, identifiers: [], country: 'AE' },
  };
}

describe('#49 a UAE document in another currency, as people read it', () => {
  it('shows the AED tax total (IBT-111), the AED total with tax (BTAE-20) and the rate, as the document states them', () => {
    const view = uaeDefinition.printable!.build(stored(uaeExamples.document.foreignCurrency.value));
    // 8 h × 150.00 USD + 5 %: 1,260.00 USD; the AED figures as sent, the rate derived from them (4,627.35 / 1,260.00).
    expect(view.totals).toMatchObject({ currency: 'USD', tax: '60.00', payable: '1260.00' });
    expect(view.otherTotals).toEqual({ currency: 'AED', tax: '220.35', taxInclusive: '4627.35', rate: '3.6725' });
    const html = renderHtml(view);
    expect(html).toMatch(/Tax total.*?\(AED\)<\/td><td class="n">220\.35 AED/);
    expect(html).toMatch(/Total with tax.*?\(AED\)<\/td><td class="n">4627\.35 AED/);
    expect(html).toContain('1 USD = 3.6725 AED');
  });

  it('shows no other currency for a document in AED', () => {
    expect(uaeDefinition.printable!.build(stored(uaeExamples.document.first.value)).otherTotals).toBeUndefined();
  });
});

import { renderHtml } from './html';
import { printableFromUbl } from './from-ubl';
import { pendingMark } from './marks';
import { qrModules } from './qr';
import { exampleUbl, viewWithQr } from './testing/views';
import { customers } from '../peppol-ubl/fixtures/bodies';

const LINK = 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=F-2026-0001&fecha=25-11-2026&importe=24.20';

describe('#49 the HTML view', () => {
  it('is one page with no script and nothing fetched, every text escaped', () => {
    const html = renderHtml(printableFromUbl(exampleUbl('de', 'domestic', { CustomerParty: customers.de }), { languages: ['en', 'de'] }));
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('Münchner Käufer &amp; Söhne &lt;KG&gt;');
    expect(html).not.toMatch(/<script|<link|<img|src=|href=|url\(/i);
    expect(html).toContain('@page { size: A4');
  });

  it('draws the QR as inline SVG with one run per dark stretch of a row, its caption above and legend below, at the top', () => {
    const html = renderHtml(viewWithQr(LINK));
    const svg = html.match(/<svg[^>]*viewBox="0 0 (\d+) \1"[^>]*width="40mm"[^>]*>/);
    expect(svg).not.toBeNull();
    expect(Number(svg![1])).toBe(qrModules(LINK).size + 8);
    expect(html.indexOf('QR tributario:')).toBeLessThan(html.indexOf('<svg'));
    expect(html.indexOf('Factura verificable en la sede electrónica de la AEAT')).toBeGreaterThan(html.indexOf('</svg>'));
    // First on the page: before the title.
    expect(html.indexOf('<svg')).toBeLessThan(html.indexOf('<h1>'));
    expect(html).toContain('Cliente &lt;SA&gt; &amp; Cía');
  });

  it('says "not yet authorised" in each language where the mark goes, never a code', () => {
    const html = renderHtml({ ...viewWithQr(LINK), mark: pendingMark(['en', 'es'], 'pending') });
    expect(html).toContain('Not yet authorised by the tax authority');
    expect(html).toContain('Pendiente de autorización por la administración tributaria');
    expect(html).not.toContain('<svg');
  });

  it('puts Arabic labels in their own right-to-left spans', () => {
    const html = renderHtml(printableFromUbl(exampleUbl('be', 'first'), { languages: ['en', 'ar'], invoiceTitle: 'taxInvoice' }));
    expect(html).toContain('<span lang="ar">المبلغ المستحق</span>');
    expect(html).toContain('[lang=ar] { direction: rtl;');
  });
});

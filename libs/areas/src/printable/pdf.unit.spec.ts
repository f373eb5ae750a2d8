import { renderPdf } from './pdf';
import { printableFromUbl } from './from-ubl';
import { exampleUbl, viewWithQr } from './testing/views';
import { PdfTools } from './testing/pdf-tools';
import { customers } from '../peppol-ubl/fixtures/bodies';

const LINK = 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=F-2026-0001&fecha=25-11-2026&importe=24.20';
const createdAt = new Date('2026-11-25T10:00:00Z');
const tools = new PdfTools();
const text = (pdf: Buffer) => tools.text(pdf);
const qrCodes = (pdf: Buffer) => tools.qrCodes(pdf);

afterAll(() => tools.remove());

describe('#49 the PDF view', () => {
  it('reads as the document: number, names with diacritics, totals; the same bytes on every render', async () => {
    const view = printableFromUbl(exampleUbl('de', 'domestic', { CustomerParty: customers.de }), { languages: ['en', 'de'] });
    const pdf = await renderPdf(view, { createdAt });
    const read = text(pdf);
    expect(read).toContain('RE-2026-0815');
    expect(read).toContain('Münchner Käufer & Söhne <KG>');
    expect(read).toMatch(/Amount due \/ Zahlbetrag\s+\d+\.\d{2} EUR/);
    expect((await renderPdf(view, { createdAt })).equals(pdf)).toBe(true);
  });

  it('draws the QR that decodes to exactly its payload, with its caption and legend', async () => {
    for (const placement of ['top', 'side'] as const) {
      const pdf = await renderPdf(viewWithQr(LINK, 2, placement), { createdAt });
      expect(qrCodes(pdf)).toEqual([LINK]);
      // A legend may take several lines (AEAT, section 3).
      const read = text(pdf).replace(/\s+/g, ' ');
      expect(read).toContain('QR tributario:');
      expect(read).toContain('Factura verificable en la sede electrónica de la AEAT');
    }
  });

  it('is PDF/A-3b with the UBL attached (AFRelationship Source), byte for byte', async () => {
    const xml = exampleUbl('be', 'first');
    const pdf = await renderPdf(printableFromUbl(xml, { languages: ['en'], attach: true }), { createdAt });
    const attachments = tools.attachments(pdf);
    expect(attachments.map((a) => a.name)).toEqual(['INV-1773532800.xml']);
    expect(attachments[0].bytes.equals(Buffer.from(xml, 'utf8'))).toBe(true);
    expect(tools.metadata(pdf)).toMatch(/<pdfaid:part>3<\/pdfaid:part>\s*<pdfaid:conformance>B<\/pdfaid:conformance>/);
    expect(pdf.toString('latin1')).toContain('/AFRelationship /Source');
  });

  it('carries a 500-line document over pages, the header on each, the QR once', async () => {
    const pdf = await renderPdf(viewWithQr(LINK, 500), { createdAt });
    const pages = tools.pageCount(pdf);
    expect(pages).toBeGreaterThanOrEqual(5);
    const read = text(pdf);
    expect(read).toContain('Servicio 500');
    expect(read.match(/QR tributario:/g)).toHaveLength(1);
    expect(read.match(/Description \/ Descripción/g)!.length).toBe(pages);
  });
});

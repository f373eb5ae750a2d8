/**
 * The PDF view of a printable document (#49), with pdfkit: A4, DejaVu Sans embedded (subset to the
 * glyphs used: Latin with diacritics, Arabic shaped by fontkit), the regime's QR drawn as vector
 * squares. A document that carries its legal XML (`attachment`: Peppol UBL) is PDF/A-3b with the XML
 * as an associated file, AFRelationship Source (ISO 19005-3 §6.8), so the PDF alone holds the legal
 * document. Deterministic: the PDF's dates are the document's, so one document always renders the
 * same bytes.
 */
import { readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import type { PrintableDocument, PrintableMark, PrintableParty } from '../registry/printable';
import { type LabelKey, label } from './labels';
import { otherTaxCurrency, otherTotalRows, totalRows } from './html';
import { qrModules, qrRuns } from './qr';

/**
 * fontkit, a dependency of ours at the range pdfkit asks for (one copy in node_modules): pdfkit's font factory takes
 * a fontkit font (a source with `layout`), so the fonts are parsed once per process, not per document (parsing them
 * was most of a render's time and garbage: ~600 ms of a 20-line PDF on the 2-core test machine). Each document still
 * subsets them itself.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- fontkit ships no types; only `create` is used
const fontkit = require('fontkit') as { create(buffer: Buffer): object };

/** The fonts, opened once per process (DejaVu Sans 2.37: Latin, Greek, Cyrillic, Arabic; ~1.4 MB both). */
let fonts: { regular: object; bold: object } | undefined;
function dejaVu(): { regular: object; bold: object } {
  fonts ??= {
    regular: fontkit.create(readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'))),
    bold: fontkit.create(readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'))),
  };
  return fonts;
}

const MM = 72 / 25.4;

/** Arabic letters (Arabic, Arabic Supplement, presentation forms). */
const ARABIC = /[\u0600-\u06FF\u0750-\u077F\uFB50-\uFDFF\uFE70-\uFEFF]/;
/** A run of Arabic words with what joins them (spaces, dots: `ذ.م.م`), or a run of anything else. */
const RUNS = /[\u0600-\u06FF\u0750-\u077F\uFB50-\uFDFF\uFE70-\uFEFF]+(?:[\s.،-]+[\u0600-\u06FF\u0750-\u077F\uFB50-\uFDFF\uFE70-\uFEFF]+)*|[^\u0600-\u06FF\u0750-\u077F\uFB50-\uFDFF\uFE70-\uFEFF]+/g;

/**
 * A line's runs in display order. pdfkit has no bidirectional algorithm and fontkit lays one fragment out
 * in one direction: an Arabic run drawn as its own fragment is shaped and ordered right to left (fontkit's
 * Arabic shaper), a Latin one left to right. The runs follow each other left to right when the line starts
 * with a Latin letter, right to left when it starts with an Arabic one (the line's base direction, UAX #9 P2).
 */
export function visualRuns(line: string): string[] {
  const runs = line.match(RUNS) ?? [];
  const firstStrong = /[A-Za-z\u00C0-\u024F\u0370-\u04FF]|[\u0600-\u06FF\u0750-\u077F\uFB50-\uFDFF\uFE70-\uFEFF]/.exec(line)?.[0];
  return firstStrong && ARABIC.test(firstStrong) ? runs.reverse() : runs;
}
const MARGIN = 40;
const GREY = '#555555';

/** What the PDF's metadata says (its dates: the document's, for identical bytes on every render). */
export interface PdfOptions {
  readonly createdAt: Date;
}

/** The PDF's bytes. */
export function renderPdf(doc: PrintableDocument, options: PdfOptions): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    // No default font: pdfkit's Helvetica is not embedded, which PDF/A forbids.
    font: null as unknown as string,
    pdfVersion: '1.7',
    lang: doc.languages[0] ?? 'en',
    displayTitle: true,
    ...(doc.attachment ? { subset: 'PDF/A-3b' as const } : {}),
    // XMP metadata takes the title as written: no markup characters in it.
    info: { Title: `${doc.title} ${doc.number}`.replace(/[<>&"']/g, ' '), Creator: 'einvoice gateway', Producer: 'einvoice gateway (pdfkit)', CreationDate: options.createdAt },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const { regular, bold } = dejaVu();
  // @types/pdfkit names only paths and buffers; pdfkit's font factory takes a fontkit font too.
  pdf.registerFont('regular', regular as unknown as Buffer);
  pdf.registerFont('bold', bold as unknown as Buffer);
  new Layout(pdf, doc).draw();
  if (doc.attachment) {
    pdf.file(Buffer.from(doc.attachment.xml, 'utf8'), {
      name: doc.attachment.filename,
      type: 'application/xml',
      relationship: 'Source',
      description: 'The legal e-invoice (UBL 2.1) this PDF shows',
      creationDate: options.createdAt,
      modifiedDate: options.createdAt,
    } as PDFKit.Mixins.PDFAttachmentOptions);
  }
  pdf.end();
  return done;
}

/** One page flow: each block asks for the height it needs, and starts a page when it does not fit. */
class Layout {
  private readonly width: number;
  private readonly L: (key: LabelKey) => string;

  constructor(private readonly pdf: PDFKit.PDFDocument, private readonly doc: PrintableDocument) {
    this.width = pdf.page.width - 2 * MARGIN;
    this.L = (key) => label(key, doc.languages);
  }

  draw(): void {
    this.head();
    this.parties();
    this.lines();
    this.taxes();
    this.totals();
    this.list('payment', this.doc.payment);
    this.list('notes', this.doc.notes);
    this.list('references', this.doc.references.map((r) => `${r.label}: ${r.value}`));
  }

  private get y(): number {
    return this.pdf.y;
  }

  /** Starts a page when `height` more points do not fit on this one. */
  private room(height: number): void {
    if (this.y + height > this.pdf.page.height - MARGIN) this.pdf.addPage();
  }

  /**
   * Text at (x, y) in `width`: pdfkit's own layout (wrapping) for text without Arabic; Arabic or mixed text
   * line by line in visual runs (`visualRuns`), broken only after ` / ` between a label's languages.
   * Leaves `pdf.y` below it.
   */
  private write(text: string, x: number, y: number, options: { width: number; align?: 'left' | 'right' | 'center' }): void {
    const { pdf } = this;
    if (!ARABIC.test(text)) {
      pdf.text(text, x, y, options);
      return;
    }
    let top = y;
    for (const line of this.mixedLines(text, options.width)) {
      const runs = visualRuns(line);
      const total = runs.reduce((sum, run) => sum + pdf.widthOfString(run), 0);
      let left = options.align === 'right' ? x + options.width - total : options.align === 'center' ? x + (options.width - total) / 2 : x;
      for (const run of runs) {
        const width = pdf.widthOfString(run);
        if (ARABIC.test(run)) this.arabicRun(run, left + width, top);
        else pdf.text(run, left, top, { lineBreak: false });
        left += width;
      }
      top += pdf.currentLineHeight(true);
    }
    pdf.x = x;
    pdf.y = top;
  }

  /**
   * An Arabic run ending at `right`: word by word from the right, each word one fragment (shaped and right to
   * left by fontkit). Drawn whole, pdfkit loses the spaces between the words of a right-to-left fragment.
   */
  private arabicRun(run: string, right: number, top: number): void {
    const { pdf } = this;
    const space = pdf.widthOfString(' ');
    for (const word of run.split(/\s+/)) {
      if (!word) continue;
      right -= pdf.widthOfString(word);
      pdf.text(word, right, top, { lineBreak: false });
      right -= space;
    }
  }

  /** The lines of mixed text: its own, each split after ` / ` where it is wider than `width`. */
  private mixedLines(text: string, width: number): string[] {
    return text.split('\n').flatMap((line) => (this.pdf.widthOfString(line) > width && line.includes(' / ') ? line.split(' / ').map((part, i, all) => (i < all.length - 1 ? `${part} /` : part)) : [line]));
  }

  /** The height `text` takes in `width` in the current font. */
  private height(text: string, width: number): number {
    if (!ARABIC.test(text)) return this.pdf.heightOfString(text || ' ', { width });
    return this.mixedLines(text, width).length * this.pdf.currentLineHeight(true);
  }

  private head(): void {
    const { pdf, doc } = this;
    const onTop = doc.mark?.kind === 'qr' && doc.mark.placement === 'top';
    if (onTop && doc.mark) {
      // First on the first page, centred, above everything else (the AEAT's placement, section 3).
      const width = this.markWidth(doc.mark);
      pdf.y = this.mark(doc.mark, MARGIN + (this.width - width) / 2, this.y) + 12;
    }
    const side = onTop ? undefined : doc.mark;
    const markWidth = side ? this.markWidth(side) : 0;
    const top = this.y;
    const textWidth = this.width - markWidth - (markWidth ? 12 : 0);
    pdf.font('bold').fontSize(16);
    this.write(doc.title, MARGIN, top, { width: textWidth });
    pdf.font('regular').fontSize(9);
    const meta: Array<[string, string | undefined]> = [
      [this.L('number'), doc.number],
      [this.L('issueDate'), doc.issueDate],
      [this.L('dueDate'), doc.dueDate],
      ...(doc.typeCode ? ([['Type', doc.typeCode]] as Array<[string, string]>) : []),
      ...(doc.dates ?? []).map((d): [string, string] => [d.label, d.value]),
    ];
    for (const [name, value] of meta) {
      if (!value) continue;
      const y = this.y;
      pdf.fillColor(GREY).font('regular');
      const label = `${name}: `;
      this.write(label, MARGIN, y, { width: textWidth });
      const indent = Math.min(pdf.widthOfString(label) + 2, textWidth / 2);
      pdf.fillColor('black').font('bold');
      this.write(value, MARGIN + indent, y, { width: textWidth - indent });
    }
    const textBottom = this.y;
    const markBottom = side ? this.mark(side, MARGIN + this.width - markWidth, top) : top;
    pdf.y = Math.max(textBottom, markBottom) + 10;
    pdf.x = MARGIN;
  }

  private markWidth(mark: PrintableMark): number {
    if (mark.kind !== 'qr') return 200;
    // Wide enough for a KSeF number (35 characters) on one line.
    return mark.placement === 'top' ? 300 : Math.max(mark.sizeMm * MM, 210);
  }

  /**
   * The QR (its side as the regime sets it, a 4-module quiet zone: ≥ 2 mm at 30 mm), its caption above and
   * legend below, centred, in type no smaller than the document's data (9 pt); returns its bottom.
   */
  private mark(mark: PrintableMark, x: number, y: number): number {
    const { pdf } = this;
    const width = this.markWidth(mark);
    pdf.font('regular').fontSize(9.5).fillColor('black');
    if (mark.kind !== 'qr') {
      pdf.font(mark.kind === 'pending' ? 'bold' : 'regular');
      // Line by line: a line in Latin script wraps in the box, an Arabic one is drawn in its runs.
      const height = mark.text.reduce((sum, line) => sum + this.height(line, width - 8), 0) + 8;
      pdf.rect(x, y, width, height).lineWidth(1).stroke();
      let top = y + 4;
      for (const line of mark.text) {
        this.write(line, x + 4, top, { width: width - 8 });
        top = this.y;
      }
      return y + height;
    }
    if (mark.caption?.length) {
      this.write(mark.caption.join('\n'), x, y, { width, align: 'center' });
      y = this.y + 2;
    }
    const qr = qrModules(mark.payload);
    const side = mark.sizeMm * MM;
    const module = side / (qr.size + 8);
    const left = x + (width - side) / 2;
    for (const [mx, my, w] of qrRuns(qr)) pdf.rect(left + (mx + 4) * module, y + (my + 4) * module, w * module, module);
    pdf.fill('black');
    this.write(mark.legend.join('\n'), x, y + side + 2, { width, align: 'center' });
    return this.y;
  }

  private parties(): void {
    const { pdf, doc } = this;
    const half = (this.width - 12) / 2;
    this.room(80);
    const top = this.y;
    const bottoms = [this.party(this.L('issuer'), doc.issuer, MARGIN, top, half)];
    if (doc.buyer) bottoms.push(this.party(this.L('buyer'), doc.buyer, MARGIN + half + 12, top, half));
    pdf.y = Math.max(...bottoms) + 12;
    pdf.x = MARGIN;
  }

  private party(title: string, party: PrintableParty, x: number, y: number, width: number): number {
    const { pdf } = this;
    pdf.fillColor(GREY).font('regular').fontSize(8);
    this.write(title.toUpperCase(), x, y, { width });
    pdf.fillColor('black').font('bold').fontSize(10);
    this.write(party.name, x, this.y, { width });
    pdf.font('regular').fontSize(9);
    for (const line of party.address) this.write(line, x, this.y, { width });
    for (const id of party.identifiers) this.write(`${id.label}: ${id.value}`, x, this.y, { width });
    return this.y;
  }

  /** A table: columns by width (the first takes what is left), numbers right-aligned, the header repeated on each page. */
  private table(columns: ReadonlyArray<{ title: string; width?: number; right?: boolean }>, rows: readonly string[][]): void {
    const { pdf } = this;
    const fixed = columns.reduce((sum, c) => sum + (c.width ?? 0), 0);
    const widths = columns.map((c) => c.width ?? this.width - fixed);
    const lefts = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((a, b) => a + b, 0));
    const row = (cells: readonly string[], font: 'regular' | 'bold', size: number) => {
      pdf.font(font).fontSize(size);
      const height = Math.max(...cells.map((cell, i) => this.height(cell, widths[i] - 4))) + 4;
      return { height, draw: (y: number) => cells.forEach((cell, i) => this.write(cell, lefts[i] + 2, y + 2, { width: widths[i] - 4, align: columns[i].right ? 'right' : 'left' })) };
    };
    const header = () => {
      const head = row(columns.map((c) => c.title), 'bold', 7.5);
      this.room(head.height + 14);
      const y = this.y;
      pdf.fillColor(GREY);
      head.draw(y);
      pdf.fillColor('black');
      pdf.moveTo(MARGIN, y + head.height).lineTo(MARGIN + this.width, y + head.height).lineWidth(0.5).strokeColor('#999999').stroke();
      pdf.y = y + head.height;
    };
    header();
    for (const cells of rows) {
      const body = row(cells, 'regular', 8.5);
      if (this.y + body.height > pdf.page.height - MARGIN) {
        pdf.addPage();
        header();
      }
      const y = this.y;
      body.draw(y);
      pdf.moveTo(MARGIN, y + body.height).lineTo(MARGIN + this.width, y + body.height).lineWidth(0.3).strokeColor('#dddddd').stroke();
      pdf.y = y + body.height;
    }
    pdf.x = MARGIN;
    pdf.y += 8;
  }

  private lines(): void {
    const { doc } = this;
    // Some regimes' documents have no item lines (AFIP's vouchers): their breakdown says it all.
    if (!doc.lines.length) return;
    const discounts = doc.lines.some((line) => line.discounts?.length);
    const columns = [
      { title: this.L('description') },
      { title: this.L('quantity'), width: 62, right: true },
      { title: this.L('unitPrice'), width: 68, right: true },
      ...(discounts ? [{ title: this.L('discounts'), width: 70, right: true }] : []),
      { title: this.L('tax'), width: 52 },
      { title: `${this.L('amount')} (${doc.totals.currency})`, width: 78, right: true },
    ];
    this.table(
      columns,
      doc.lines.map((line) => [
        line.description,
        `${line.quantity}${line.unit ? ` ${line.unit}` : ''}`,
        line.unitPrice,
        ...(discounts ? [(line.discounts ?? []).join('\n')] : []),
        `${line.taxCategory ?? ''}${line.taxRate !== undefined ? ` ${line.taxRate} %` : ''}`,
        line.amount,
      ]),
    );
  }

  private heading(key: LabelKey): void {
    this.room(40);
    this.pdf.fillColor(GREY).font('bold').fontSize(8);
    this.write(this.L(key).toUpperCase(), MARGIN, this.y, { width: this.width });
    this.pdf.fillColor('black');
    this.pdf.moveDown(0.2);
  }

  private taxes(): void {
    if (!this.doc.taxes.length) return;
    this.heading('taxBreakdown');
    const other = otherTaxCurrency(this.doc);
    const columns = [{ title: this.L('category') }, { title: this.L('rate'), width: 70, right: true }, { title: this.L('taxable'), width: 110, right: true }, { title: this.L('tax'), width: 110, right: true }];
    this.table(
      other ? [...columns, { title: `${this.L('tax')} (${other})`, width: 110, right: true }] : columns,
      this.doc.taxes.map((t) => [t.category, t.rate !== undefined ? `${t.rate} %` : '', t.taxable, t.tax, ...(other ? [t.otherTax ?? ''] : [])]),
    );
  }

  private totals(): void {
    const { pdf, doc } = this;
    const { totals, otherTotals } = doc;
    const rows: Array<[string, string, boolean]> = totalRows(totals).map(([key, value]) => [this.L(key), `${value} ${totals.currency}`, false]);
    rows.push([this.L('payable'), `${totals.payable} ${totals.currency}`, true]);
    for (const row of otherTotalRows(otherTotals, totals.currency)) rows.push([`${this.L(row.key)}${row.currency ? ` (${row.currency})` : ''}`, row.value, false]);
    const width = 300;
    const left = MARGIN + this.width - width;
    this.room(rows.length * 14 + 10);
    for (const [name, value, strong] of rows) {
      pdf.font(strong ? 'bold' : 'regular').fontSize(strong ? 10.5 : 9);
      const y = this.y;
      const height = Math.max(this.height(name, 190), this.height(value, 110)) + 3;
      if (strong) pdf.moveTo(left, y).lineTo(left + width, y).lineWidth(1).strokeColor('black').stroke();
      this.write(name, left, y + 2, { width: 190 });
      this.write(value, left + 190, y + 2, { width: 110, align: 'right' });
      pdf.y = y + height;
    }
    pdf.x = MARGIN;
    pdf.y += 8;
  }

  private list(key: LabelKey, items: readonly string[]): void {
    if (!items.length) return;
    this.heading(key);
    this.pdf.font('regular').fontSize(9);
    for (const item of items) {
      this.room(14);
      this.write(item, MARGIN, this.y, { width: this.width });
    }
    this.pdf.moveDown(0.5);
  }
}

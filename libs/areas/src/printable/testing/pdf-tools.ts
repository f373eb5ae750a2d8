/**
 * A PDF read with a person's tools (#49), in unit and e2e tests: its text (poppler's pdftotext), its attachments
 * (pdfdetach), its XMP metadata (pdfinfo) and its QR codes (pdftoppm, then zbarimg).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export class PdfTools {
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'pdf-tools-'));
  private count = 0;

  /** `dpi`: the page image the QR codes are read from (200: as a scanner sees a print). */
  constructor(private readonly options: { readonly dpi?: number } = {}) {}

  private saved(pdf: Buffer): string {
    const file = path.join(this.dir, `${++this.count}.pdf`);
    writeFileSync(file, pdf);
    return file;
  }

  /** The text as `pdftotext -layout` extracts it. */
  text(pdf: Buffer): string {
    return execFileSync('pdftotext', ['-layout', this.saved(pdf), '-']).toString();
  }

  /** The names and bytes of the embedded files. */
  attachments(pdf: Buffer): Array<{ name: string; bytes: Buffer }> {
    const file = this.saved(pdf);
    const listing = execFileSync('pdfdetach', ['-list', file]).toString();
    const names = listing.split('\n').slice(1).map((line) => line.replace(/^\d+: /, '').trim()).filter(Boolean);
    return names.map((name, i) => {
      const out = path.join(this.dir, `${this.count}-${i}`);
      execFileSync('pdfdetach', ['-save', String(i + 1), '-o', out, file]);
      return { name, bytes: readFileSync(out) };
    });
  }

  /** The XMP metadata (PDF/A identification). */
  metadata(pdf: Buffer): string {
    return execFileSync('pdfinfo', ['-meta', this.saved(pdf)]).toString();
  }

  /** How many pages (pdfinfo). */
  pageCount(pdf: Buffer): number {
    return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [this.saved(pdf)]).toString())?.[1]);
  }

  /** Every QR code of the first page, decoded. */
  qrCodes(pdf: Buffer): string[] {
    const file = this.saved(pdf);
    execFileSync('pdftoppm', ['-r', String(this.options.dpi ?? 150), '-f', '1', '-l', '1', '-png', '-singlefile', file, file]);
    const scan = spawnSync('zbarimg', ['--quiet', '--raw', '-Sbinary', `${file}.png`]);
    // zbarimg's status 4: no code on the page.
    if (scan.status === 4) return [];
    if (scan.status !== 0) throw new Error(`zbarimg failed (${scan.status}): ${scan.stderr.toString()}`);
    return scan.stdout.toString('utf8').split('\n').filter(Boolean);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A PDF read with a person's tools in unit tests (#49): its text (poppler's pdftotext) and its QR codes (pdftoppm, then zbarimg). */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export class PdfTools {
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'pdf-tools-'));
  private count = 0;

  private saved(pdf: Buffer): string {
    const file = path.join(this.dir, `${++this.count}.pdf`);
    writeFileSync(file, pdf);
    return file;
  }

  /** The text as `pdftotext -layout` extracts it. */
  text(pdf: Buffer): string {
    return execFileSync('pdftotext', ['-layout', this.saved(pdf), '-']).toString();
  }

  /** The QR codes of the first page, decoded (150 dpi). */
  qrCodes(pdf: Buffer): string[] {
    const file = this.saved(pdf);
    execFileSync('pdftoppm', ['-r', '150', '-f', '1', '-l', '1', '-png', '-singlefile', file, file]);
    const scan = spawnSync('zbarimg', ['--quiet', '--raw', '-Sbinary', `${file}.png`]);
    return scan.status === 4 ? [] : scan.stdout.toString('utf8').split('\n').filter(Boolean);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

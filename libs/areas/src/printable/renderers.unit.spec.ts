import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseInvoice } from '../peppol/codec';
import { suppliers } from '../peppol-ubl/fixtures/bodies';
import { peppolExamples } from '../peppol-ubl/examples';
import { profiles } from '../peppol-ubl/profiles';
import { renderDocument } from '../peppol-ubl/render';
import { printableFromUbl } from './from-ubl';
import { renderHtml } from './html';
import { renderPdf } from './pdf';

const ubl = renderDocument(profiles.de, parseInvoice(profiles.de, peppolExamples.de.invoice.domestic.value), suppliers.de, '6f1e1a3c-1d2b-4c5e-8f90-123456789abc');

it('renders', async () => {
  const doc = printableFromUbl(ubl, { languages: ['en', 'de'], attach: true });
  console.log(JSON.stringify(doc, (k, v) => (k === 'xml' ? undefined : v), 1));
  const dir = mkdtempSync(path.join(tmpdir(), 'pdf-'));
  writeFileSync(path.join(dir, 'a.html'), renderHtml(doc));
  const started = performance.now();
  const pdf = await renderPdf(doc, { createdAt: new Date('2026-03-15T10:00:00Z') });
  console.log('ms', performance.now() - started, dir);
  writeFileSync(path.join(dir, 'a.pdf'), pdf);
  console.log(execFileSync('pdftotext', ['-layout', path.join(dir, 'a.pdf'), '-']).toString());
});
